import ipaddr from "ipaddr.js";

const BENCHMARKING = ipaddr.IPv4.parseCIDR("198.18.0.0/15");
/** Global unicast IPv6 (RFC 4291): every other IPv6 address is local, special or not yet assigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Whether an address is one a server must not be made to connect to on someone's word:
 * loopback, private, link-local, carrier-grade NAT, multicast, reserved, documentation,
 * benchmarking, IPv6 outside global unicast, and IPv4 hidden in IPv6 (mapped, NAT64, 6to4,
 * Teredo). Anything that does not parse is treated as such.
 */
export function isSpecialUseAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() reads an IPv4-mapped IPv6 address as the IPv4 address it carries.
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ""));
  } catch {
    return true;
  }
  if (parsed.kind() === "ipv4") {
    const v4 = parsed as ipaddr.IPv4;
    return v4.range() !== "unicast" || v4.match(BENCHMARKING);
  }
  const v6 = parsed as ipaddr.IPv6;
  return v6.range() !== "unicast" || !v6.match(GLOBAL_UNICAST_V6);
}
