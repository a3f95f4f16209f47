import { ErrorStatusCodes, ErrorType } from "herald";
import { ERROR_STATUSES, statusOfErrorType } from "../../src/client/error-statuses";

/** The client's copy of the server's statuses (it imports nothing of the server) cannot drift from them. */
test("the client maps every error type to the server's status", () => {
  expect(ERROR_STATUSES).toEqual({ ...ErrorStatusCodes });
});

test("a type the client does not know gets 500, as on the server", () => {
  expect(statusOfErrorType(ErrorType.CONNECTION_CONFLICT)).toBe(409);
  expect(statusOfErrorType("APP_SPECIFIC")).toBe(500);
  expect(statusOfErrorType("toString")).toBe(500);
});
