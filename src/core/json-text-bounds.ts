import { MAX_PARAMS_DEPTH, ParamsBounds, tooDeep, tooMany } from "./params-bounds";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Checks the JSON text of params against the bounds of `assertParamsBounds` before it is parsed:
 * JSON.parse of a megabyte of short keys takes hundreds of milliseconds of the event loop, a scan
 * of its bytes a few. Only counts members (commas outside strings, plus the first of each
 * container) and nesting; whether the text is JSON at all is JSON.parse's to say.
 */
export function assertJsonTextBounds(bytes: Uint8Array, bounds: ParamsBounds): void {
  const members: number[] = [];
  const inObject: boolean[] = [];
  let values = 0;
  let inString = false;
  let awaitingFirst = false;
  const count = () => {
    const top = members.length - 1;
    if (top < 0) return;
    members[top] += 1;
    if (inObject[top] && members[top]! > bounds.maxKeys) throw tooMany("keys in one object", bounds.maxKeys);
    values += 1;
    if (values > bounds.maxValues) throw tooMany("values (object keys and array items together)", bounds.maxValues);
  };
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (isWhitespace(byte)) continue;
    if (awaitingFirst) {
      awaitingFirst = false;
      if (byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY) count();
    }
    if (byte === QUOTE) inString = true;
    else if (byte === COMMA) count();
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (members.length >= MAX_PARAMS_DEPTH) throw tooDeep();
      members.push(0);
      inObject.push(byte === OPEN_OBJECT);
      awaitingFirst = true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      members.pop();
      inObject.pop();
    }
  }
}
