import QRCode from "qrcode";

/**
 * A QR code as inline SVG markup, drawn on the server (issue 32: a member's code to show at the desk, a gym's join
 * link to hand out): no image request, no script, crisp at any size. `label` is what a screen reader hears.
 */
export async function qrSvg(text: string, label: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#0f172a", light: "#ffffff" } });
  return svg.replace("<svg ", `<svg role="img" aria-label="${label.replace(/[<>&"]/g, "")}" `);
}
