import { addressKey } from "../../src/core/caller-address";

describe("addressKey: what every per-address limit counts a caller under", () => {
  test.each([
    ["203.0.113.9", "203.0.113.9"],
    ["127.0.0.2", "127.0.0.2"],
  ])("an IPv4 address is its own key: %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  test.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::ffff:127.0.0.2", "127.0.0.2"],
    ["::FFFF:203.0.113.9", "203.0.113.9"],
    ["::ffff:cb00:7109", "203.0.113.9"],
  ])("an IPv4-mapped IPv6 address is counted as the IPv4 address it maps: %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  test("the addresses of one IPv6 /64 share a key, whatever their spelling; another /64 has another", () => {
    const keys = ["2001:db8:1:2::a", "2001:DB8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002:0:0:0:1"].map(addressKey);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(addressKey("2001:db8:1:3::a")).toBe("2001:db8:1:3::/64");
    expect(addressKey("::1")).toBe("::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80::/64");
  });

  test("no address has no key", () => {
    expect(addressKey(undefined)).toBeUndefined();
  });

  test("text that is not an address is its own key", () => {
    expect(addressKey("")).toBe("");
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("not:an:address")).toBe("not:an:address");
  });
});
