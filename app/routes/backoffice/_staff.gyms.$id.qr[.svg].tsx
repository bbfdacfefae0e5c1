import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadGym } from "../../features/gyms/gym-route.server";
import { qrSvg } from "../../lib/qr.server";

/**
 * /gyms/{id}/qr.svg[?price=id] (issue 32): the QR code of a gym's join link, or of one price's, as an SVG file to
 * print or download. 404 for a price not on sale there, or an archived gym (no link).
 */
export async function loader(args: LoaderFunctionArgs) {
  const gym = await loadGym(args);
  const priceId = new URL(args.request.url).searchParams.get("price");
  const url = priceId === null ? gym.join?.url : gym.join?.prices.find((p) => String(p.id) === priceId)?.url;
  if (!url) throw new Response("This gym has no such join link.", { status: 404 });
  const svg = await qrSvg(url, `QR code of the join link for ${gym.name}`);
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${svg}`, {
    headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "private, max-age=300", "x-content-type-options": "nosniff" },
  });
}
