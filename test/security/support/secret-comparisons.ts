import ts from "typescript";

/** Names that hold a caller-supplied secret or what it is checked against (`-` folded to `_` first). */
const SECRET_NAME = /secret|token|password|passwd|api_?key|credential|signature|hmac/i;

/** A property that describes a value rather than being it: comparing it leaks nothing of the secret. */
const DESCRIPTIVE_PROPERTY = new Set(["length", "type", "kind", "status"]);

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

export interface PlainSecretComparison {
  line: number;
  text: string;
}

/** Parentheses, `!` and type assertions change nothing at run time, so look through them. */
function unwrap(node: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.replace(/-/g, "_"));
}

/** A literal, or what a presence or type check compares with: the comparison's timing reveals nothing. */
function isConstantLike(operand: ts.Expression): boolean {
  const node = unwrap(operand);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) return isConstantLike(node.operand);
  if (ts.isIdentifier(node)) return node.text === "undefined" || node.text === "NaN";
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isBigIntLiteral(node) ||
    ts.isTypeOfExpression(node) ||
    node.kind === ts.SyntaxKind.NullKeyword ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword
  );
}

/** `x.length`, `x.type`, `typeof x`: derived from a secret, but not the secret itself. */
function isDescriptive(node: ts.Node): boolean {
  if (ts.isTypeOfExpression(node)) return true;
  if (ts.isPropertyAccessExpression(node)) return DESCRIPTIVE_PROPERTY.has(node.name.text);
  return ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && DESCRIPTIVE_PROPERTY.has(node.argumentExpression.text);
}

/** Whether the expression refers to a secret-named or tainted name anywhere but under a descriptive part. */
function mentionsSecret(node: ts.Node, tainted: ReadonlySet<string>): boolean {
  if (isDescriptive(node)) return false;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return isSecretName(node.text) || tainted.has(node.text);
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    const key = node.argumentExpression.text;
    if (isSecretName(key) || tainted.has(key)) return true;
  }
  return ts.forEachChild(node, (child) => mentionsSecret(child, tainted) || undefined) ?? false;
}

/** A name that receives a value, with the nodes that value comes from. */
interface Flow {
  target: string;
  sources: ts.Node[];
}

/** Every identifier a `const`/`let`/`var` pattern binds; a renamed key (`{ apiKey: k }`) is a source too. */
function bindingFlows(name: ts.BindingName, sources: ts.Node[]): Flow[] {
  if (ts.isIdentifier(name)) return [{ target: name.text, sources }];
  return name.elements.flatMap((element) => {
    if (ts.isOmittedExpression(element)) return [];
    const extra = [element.propertyName, element.initializer].filter((node): node is NonNullable<typeof node> => node !== undefined);
    return bindingFlows(element.name, [...sources, ...extra]);
  });
}

/** The assigned name of `x = …` or `this.x = …` (any object, since taint is tracked by name). */
function assignedName(target: ts.Expression): string | undefined {
  const node = unwrap(target);
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}

/** Declarations with initializers and assignments; parameters are left out, since callers decide what they hold. */
function valueFlows(file: ts.SourceFile): Flow[] {
  const flows: Flow[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      flows.push(...bindingFlows(node.name, [node.initializer]));
    } else if (ts.isPropertyDeclaration(node) && node.initializer && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) {
      flows.push({ target: node.name.text, sources: [node.initializer] });
    } else if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
      const target = assignedName(node.left);
      if (target !== undefined) flows.push({ target, sources: [node.right] });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return flows;
}

function isAssignment(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** Names holding a secret under another name (`expected = key`), grown until no flow adds one. */
function taintedNames(file: ts.SourceFile): Set<string> {
  const flows = valueFlows(file);
  const tainted = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const { target, sources } of flows) {
      if (tainted.has(target) || !sources.some((source) => mentionsSecret(source, tainted))) continue;
      tainted.add(target);
      grew = true;
    }
  }
  return tainted;
}

function isSecretOperand(operand: ts.Expression, tainted: ReadonlySet<string>): boolean {
  return !isDescriptive(unwrap(operand)) && mentionsSecret(operand, tainted);
}

/**
 * Comparisons with `===`, `!==`, `==` or `!=` of a secret (by name, or by a value flowing from one
 * in the same file) against another value, not a literal or a type check: each is a timing side
 * channel that `safeCompare` closes.
 */
export function plainSecretComparisons(source: string, fileName = "source.ts"): PlainSecretComparison[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tainted = taintedNames(file);
  const found: PlainSecretComparison[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind) && isPlainSecretComparison(node, tainted)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push({ line: line + 1, text: node.getText(file).replace(/\s+/g, " ") });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function isPlainSecretComparison({ left, right }: ts.BinaryExpression, tainted: ReadonlySet<string>): boolean {
  if (isConstantLike(left) || isConstantLike(right)) return false;
  return isSecretOperand(left, tainted) || isSecretOperand(right, tainted);
}
