import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { sandbox_links } from "../../db/schema";
import type { LinkProvider } from "./link-provider";

/**
 * The offline Branch: a short link on our own address (`{base}api/links/{code}`, GET answers a redirect to the web
 * page, as a Branch link does on a computer), kept in `sandbox_links`.
 */
export function sandboxLinks(db: Db, base: string): LinkProvider {
  return {
    name: "branch",
    mode: "sandbox",
    async create(request) {
      const code = randomBytes(8).toString("base64url");
      await db.insert(sandbox_links).values({ code, url: request.url, channel: request.channel, feature: request.feature, data: request.data ?? {} });
      return new URL(`api/links/${code}`, base).toString();
    },
  };
}
