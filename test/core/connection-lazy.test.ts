import { Connection, type ConnectionSession } from "../../src/core/connection";
import { CONNECTION_TYPE } from "../../src/core/constants";

const ID_SHAPE = /^[0-9a-f]{16}-[0-9a-z]+$/;

function fakeSession(id: string): ConnectionSession {
  return { id, get: () => undefined, all: () => ({}), set: async () => {}, delete: async () => {}, destroy: async () => {}, regenerate: async () => {}, own: async () => {}, destroyOthersOf: async () => {} };
}

describe("a connection's id", () => {
  test("is made for it when none is given: the same on every read, another for each connection", () => {
    const first = new Connection({ type: CONNECTION_TYPE.websocket });
    const second = new Connection({ type: CONNECTION_TYPE.websocket });
    expect(first.id).toMatch(ID_SHAPE);
    expect(first.id).toBe(first.id);
    expect(second.id).toMatch(ID_SHAPE);
    expect(second.id).not.toBe(first.id);
  });

  test("is the transport's own when it gives one (a job's)", () => {
    expect(new Connection({ type: CONNECTION_TYPE.task, id: "job-7" }).id).toBe("job-7");
  });
});

describe("a connection's session opened on first read", () => {
  test("is opened once, when something first reads it, and never if nothing does", () => {
    const openSession = jest.fn(() => fakeSession("s1"));
    const unread = new Connection({ type: CONNECTION_TYPE.websocket, openSession });
    expect(unread.type).toBe(CONNECTION_TYPE.websocket);
    expect(openSession).not.toHaveBeenCalled();

    const read = new Connection({ type: CONNECTION_TYPE.websocket, openSession });
    expect(read.session?.id).toBe("s1");
    const opened = read.session;
    expect(read.session).toBe(opened);
    expect(openSession).toHaveBeenCalledTimes(1);
  });

  test("gives way to a session given outright, and to one assigned later", () => {
    const openSession = jest.fn(() => fakeSession("opened"));
    const given = new Connection({ type: CONNECTION_TYPE.web, session: fakeSession("given"), openSession });
    expect(given.session?.id).toBe("given");
    given.session = fakeSession("assigned");
    expect(given.session.id).toBe("assigned");
    expect(openSession).not.toHaveBeenCalled();
  });
});
