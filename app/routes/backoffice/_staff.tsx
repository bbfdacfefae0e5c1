import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { IN_PLACE_ACTIONS } from "../../features/membership/in-place-actions";
import { Outlet, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Icon } from "../../components/shell/icons";
import { MemberSearch } from "../../components/shell/member-search";
import { guardSection, hasCalendarAndMessaging, isGuardedSection } from "../../components/shell/nav";
import { Sidebar } from "../../components/shell/sidebar";
import { Switcher } from "../../components/shell/switcher";
import { useUnreadCount } from "../../components/shell/use-unread-count";
import { requireStaff, type Me } from "../../lib/session.server";
import { BareError } from "../../components/bare-error";
import { PageError } from "../../components/page-error";

/** The signed-in back-office frame: sidebar, top bar with switchers and search, and the page. */
export async function loader(args: LoaderFunctionArgs) {
  const { pathname } = new URL(args.request.url);
  // An address no page claims is the splat route below (_staff.$.tsx; its "*" param reaches this loader too):
  // staff see its 404 inside this frame, anyone else the bare 404 page rather than the sign-in page. A guarded
  // section's future pages are the exception: they need staff, and staff who may enter, already.
  const unknownAddress = args.params["*"] !== undefined && !isGuardedSection(pathname);
  const { me, api } = await requireStaff(args, { othersNotFound: unknownAddress });
  // A check-in kiosk's session (issue 32) has one page.
  if (me.kiosk) throw redirect("/kiosk");
  const to = guardSection(pathname, me);
  if (to) throw redirect(to);
  const unread = hasCalendarAndMessaging(me) ? (await api.get("/messaging/unread-messages")).unread_messages : 0;
  return { me, unread };
}

/**
 * SPEC §2: the calendar and messages pages do not use the full-height main area. Their main is as tall as they are
 * and lays out nothing of its own (they set their own padding and width); nothing clips them, so the member picker's
 * list can open past their end.
 */
const OWN_LAYOUT = ["/calendar", "/messages"];

/** The frame around every back-office page, and around its error page, so the sidebar and search stay. */
function StaffShell({ me, unread, children }: { me: Me; unread: number; children: React.ReactNode }) {
  const { pathname, search, key } = useLocation();
  // The results page keeps its query in the box, so it can be corrected rather than typed again.
  const query = pathname === "/search" ? (new URLSearchParams(search).get("q") ?? "") : "";
  const [menuOpen, setMenuOpen] = useState(false);
  const openGyms = me.gyms.filter((g) => !g.archived);
  const unreadCount = useUnreadCount(unread, hasCalendarAndMessaging(me));
  // On a phone the sidebar closes on every navigation.
  useEffect(() => setMenuOpen(false), [key]);
  const ownLayout = OWN_LAYOUT.some((p) => pathname === p || pathname.startsWith(`${p}/`));

  return (
    <div className="min-h-full">
      {/* The phone menu is a checkbox its labels toggle, so it opens and closes without JavaScript too. */}
      <input id="nav-open" type="checkbox" className="peer sr-only" checked={menuOpen} onChange={(e) => setMenuOpen(e.target.checked)} aria-label="Show menu" />
      <label htmlFor="nav-open" className="fixed inset-0 z-30 hidden bg-slate-900/40 peer-checked:block lg:!hidden" aria-hidden="true" />
      <aside
        className="invisible fixed inset-y-0 left-0 z-40 w-64 -translate-x-full transition-transform peer-checked:visible peer-checked:translate-x-0 lg:visible lg:translate-x-0"
        aria-label="Sidebar"
      >
        <Sidebar me={me} unread={unreadCount} />
        <label htmlFor="nav-open" className="absolute right-2 top-3 cursor-pointer rounded p-1 text-slate-600 lg:hidden">
          <Icon name="close" />
          <span className="sr-only">Close menu</span>
        </label>
      </aside>

      <div className="flex min-h-screen flex-col lg:pl-64">
        <header className="sticky top-0 z-20 flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-2">
          <label htmlFor="nav-open" className="cursor-pointer rounded p-1 text-slate-700 lg:hidden">
            <Icon name="menu" className="h-6 w-6" />
            <span className="sr-only">Open menu</span>
          </label>
          <div className="order-last w-full sm:order-none sm:w-auto sm:flex-1">
            <MemberSearch pageQuery={query} />
          </div>
          <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
            {me.organisations.length > 1 ? (
              <Switcher
                label="Organisation"
                action="/switch/organisation"
                name="organisation_id"
                options={me.organisations}
                currentId={me.current_organisation?.id}
                listClassName="max-h-[15rem]"
              />
            ) : null}
            {/* Archived gyms are no longer worked in (issue 32): not offered here, still in the lists' gym filters. */}
            {openGyms.length > 1 ? <Switcher label="Gym" action="/switch/gym" name="gym_id" options={openGyms} currentId={me.current_gym?.id} /> : null}
          </div>
        </header>
        <main className={ownLayout ? undefined : "flex-1 px-4 py-6 sm:px-6"}>{children}</main>
      </div>
    </div>
  );
}

const IN_PLACE_PATH = new RegExp(`^(/members/\\d+)/(?:${IN_PLACE_ACTIONS.join("|")})$`);
const pageView = (pathname: string) => pathname.replace(IN_PLACE_PATH, "$1");

export default function StaffLayout() {
  const { me, unread } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  return (
    <StaffShell me={me} unread={unread}>
      {/* A new page view when the path or the current organisation changes (an action opened in place over the
          member page is still the member page's view). */}
      <Outlet key={`${pageView(pathname)}:${me.current_organisation?.id}`} />
    </StaffShell>
  );
}

/**
 * One error page for every back-office page: inside the shell when the shell's own data loaded (a page's
 * loader failed, the record is missing or not allowed, or no page has that address), bare when the shell
 * itself could not load (not staff at an unknown address, the other app's host, the API down).
 */
export function ErrorBoundary() {
  const shell = useRouteLoaderData<typeof loader>("routes/backoffice/_staff");
  if (!shell) return <BareError />;
  return (
    <StaffShell me={shell.me} unread={shell.unread}>
      <PageError />
    </StaffShell>
  );
}
