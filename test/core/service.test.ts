import { inject, rootContainer, Service } from "herald";

const REGION = Symbol("Region");

@Service()
class Tally {
  readonly seen: string[] = [];
  constructor(@inject(REGION) readonly region: string) {}
}

@Service()
class Reporter {
  constructor(readonly tally: Tally) {}
}

function serverContainer(region: string) {
  const container = rootContainer.createChildContainer();
  container.register(REGION, { useValue: region });
  return container;
}

test("one instance per container: every class that asks for it shares it", () => {
  const container = serverContainer("eu");
  container.resolve(Tally).seen.push("first call");
  expect(container.resolve(Tally).seen).toEqual(["first call"]);
  expect(container.resolve(Reporter).tally).toBe(container.resolve(Tally));
});

test("two servers each get their own, built from their own container's dependencies", () => {
  const europe = serverContainer("eu");
  const america = serverContainer("us");
  const first = europe.resolve(Tally);
  const second = america.resolve(Tally);
  expect(second).not.toBe(first);
  expect([first.region, second.region]).toEqual(["eu", "us"]);
});

test("a provider registered in a server's container replaces it there only", () => {
  const replaced = serverContainer("eu");
  const fake = { seen: ["fake"], region: "test" } as Tally;
  replaced.register(Tally, { useValue: fake });
  expect(replaced.resolve(Reporter).tally).toBe(fake);
  expect(serverContainer("eu").resolve(Reporter).tally).not.toBe(fake);
});

test("resolving through the root container does not hand the root's instance to the servers", () => {
  rootContainer.register(REGION, { useValue: "root" });
  const fromRoot = rootContainer.resolve(Tally);
  expect(rootContainer.resolve(Tally)).toBe(fromRoot);
  const server = serverContainer("eu").resolve(Tally);
  expect(server).not.toBe(fromRoot);
  expect(server.region).toBe("eu");
});
