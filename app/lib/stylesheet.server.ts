import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stylesheetHref } from "../components/stylesheet";

let text: string | null = null;

/** The built stylesheet's text (public/build/_assets/…), read once: what the sign-up pages inline. */
export function stylesheetText(): string {
  if (text === null) text = readFileSync(join(process.cwd(), "public", stylesheetHref), "utf8");
  return text;
}
