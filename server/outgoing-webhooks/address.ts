import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import type { Config } from "../core/config";

/**
 * Where an endpoint may point (issue 33, decision 0063): anyone who can add an endpoint makes our server send a POST
 * where they say, so it must not be a way into our own network. Refused:
 * - anything but https (plain http only to loopback, and only under the tests' and demos' WEBHOOKS_ALLOW_LOOPBACK);
 * - a user name or password in the address;
 * - our own host (the back-office's and sign-up's names, and this server's own port on loopback);
 * - an address that is, or a name that resolves to, anything but a public unicast address: private, loopback,
 *   link-local (169.254/16, the cloud's metadata service), carrier-grade NAT, unique-local, multicast, reserved
 *   ranges, and IPv6 forms that wrap them (::ffff:10.0.0.1, NAT64).
 * Checked when an endpoint is saved (with a DNS lookup) and again at each delivery, where the connection's own lookup
 * (`checkedLookup`) refuses a private answer and connects to exactly the addresses it checked: a name whose DNS changes
 * between the two (rebinding) is still refused. Node skips `lookup` for an IP literal, so literals are checked apart.
 */
export interface AddressRules {
  allowLoopback: boolean;
  /** Host names that are ours, lower case. */
  ownHosts: string[];
  /** This server's port: on loopback, only this port is "our own host". */
  ownPort: number;
}

export function addressRules(config: Config): AddressRules {
  const named = [config.PUBLIC_BACKOFFICE_URL, config.PUBLIC_SIGNUP_URL, config.API_BASE].flatMap((u) => (u ? [new URL(u).hostname.toLowerCase()] : []));
  return {
    allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK,
    ownHosts: [...new Set([...config.BACKOFFICE_HOSTS, ...config.SIGNUP_HOSTS, ...named])],
    ownPort: config.PORT,
  };
}

export class RefusedAddress extends Error {
  code = "EREFUSEDADDRESS";
}

const bare = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Whether an IP address may be sent to: public unicast, or loopback when the rules allow it. */
export function addressAllowed(ip: string, rules: Pick<AddressRules, "allowLoopback">): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const range = ipaddr.process(ip).range();
  return range === "unicast" || (rules.allowLoopback && range === "loopback");
}

const isLoopbackName = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || (net.isIP(host) > 0 && ipaddr.process(host).range() === "loopback");

/**
 * What is wrong with the address before any lookup: its scheme, credentials, our own host, a literal IP that is not
 * public. Null when nothing is.
 */
export function staticRefusal(raw: string, rules: AddressRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "This is not a web address.";
  }
  const host = bare(url.hostname);
  const loopback = isLoopbackName(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && rules.allowLoopback && loopback))
    return "Use an https:// address: events carry members' details.";
  if (url.username || url.password) return "Leave the user name and password out of the address.";
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  // On loopback (tests and demos only) "our own host" is this server's own port; elsewhere any of our names is ours.
  if (loopback ? rules.allowLoopback && port === rules.ownPort : rules.ownHosts.includes(host))
    return "This is our own address: events cannot be sent back to us.";
  if (net.isIP(host) && !addressAllowed(host, rules)) return `${host} is a private or reserved address: use one reachable on the internet.`;
  if (!net.isIP(host) && loopback && !rules.allowLoopback) return `${host} is this machine: use an address reachable on the internet.`;
  return null;
}

/** `dns.lookup` with every answer checked: one private address refuses the name (a receiver has no need of one). */
export function checkedLookup(rules: Pick<AddressRules, "allowLoopback">): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const bad = addresses.find((a) => !addressAllowed(a.address, rules));
      if (!addresses.length || bad) {
        return callback(
          new RefusedAddress(`${hostname} resolves to ${bad?.address ?? "nothing"}, a private or reserved address.`) as NodeJS.ErrnoException,
          "",
          0,
        );
      }
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The check when an endpoint is saved: the static rules, then the name's addresses as DNS gives them now. Null when
 * the address may be used, else why not (for the form's url field).
 */
export async function endpointRefusal(raw: string, rules: AddressRules): Promise<string | null> {
  const refused = staticRefusal(raw, rules);
  if (refused) return refused;
  const host = bare(new URL(raw).hostname);
  if (net.isIP(host)) return null;
  const lookup = checkedLookup(rules);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (err) => {
      if (!err) return resolve(null);
      resolve(err instanceof RefusedAddress ? err.message : `We could not find ${host}: check the address.`);
    });
  });
}
