import { ErrorType } from "herald";
import { ErrorStatusCodes } from "../../src/core/errors";
import type { DeclaredError } from "../../src/core/declared-errors";
import { operationErrorResponses } from "../../src/openapi/error-responses";

function declared(...types: ErrorType[]): Map<ErrorType, DeclaredError> {
  return new Map(types.map((type) => [type, { type, status: ErrorStatusCodes[type] }]));
}

test("an action that declares CONNECTION_INPUT_REQUIRED documents it beside validation's 422, not by the shared response", () => {
  const validation = [ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, ErrorType.CONNECTION_ACTION_PARAM_VALIDATION];
  expect(operationErrorResponses(declared(...validation))["422"]).toEqual({ $ref: "#/components/responses/UnprocessableEntity" });
  const asking = operationErrorResponses(declared(...validation, ErrorType.CONNECTION_INPUT_REQUIRED))["422"] as { description: string; content: unknown };
  expect(asking.description).toContain("CONNECTION_INPUT_REQUIRED");
  expect(JSON.stringify(asking.content)).toContain(`"enum":["CONNECTION_ACTION_PARAM_REQUIRED","CONNECTION_ACTION_PARAM_VALIDATION","CONNECTION_INPUT_REQUIRED"]`);
});
