/**
 * The plain HTML sign-up form a gym's own site can paste (README "Sending people to sign up from a gym's own site"),
 * filled in for one gym: the person's details go straight to the sign-up app, which e-mails the code next.
 */
export function joinFormSnippet(joinUrl: string, gymUuid: string): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return [
    `<form method="post" action="${esc(joinUrl)}">`,
    `  <input type="hidden" name="gym" value="${esc(gymUuid)}">`,
    `  <label>Full name <input name="name" autocomplete="name" required></label>`,
    `  <label>E-mail <input name="email" type="email" autocomplete="email" required></label>`,
    `  <label>Mobile <input name="mobile_number" type="tel" autocomplete="tel" required></label>`,
    `  <label>Password <input name="password" type="password" autocomplete="new-password" minlength="8" required></label>`,
    `  <button>Join</button>`,
    `</form>`,
  ].join("\n");
}
