import { Form, Link, useLocation } from "@remix-run/react";
import { capitaliseWords } from "../../../domain/names";
import type { Me } from "../../lib/session.server";
import { Logo } from "../auth-card";
import { Icon } from "./icons";
import { isGroup, NAV, type NavLinkEntry } from "./nav";
import { YourAccess } from "./your-access";

const itemClass = (active: boolean) =>
  `group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${
    active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;

function Entry({ entry, pathname, unread }: { entry: NavLinkEntry; pathname: string; unread: number }) {
  const active = entry.isActive(pathname);
  return (
    <li>
      <Link to={entry.to} className={itemClass(active)} aria-current={active ? "page" : undefined}>
        <Icon name={entry.icon} />
        <span className="flex-1">{entry.name}</span>
        {entry.badge === "unread" && unread > 0 ? (
          <span className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white" data-testid="unread-badge">
            {unread}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </Link>
    </li>
  );
}

export function Sidebar({ me, unread }: { me: Me; unread: number }) {
  const { pathname } = useLocation();
  return (
    <div className="flex h-full flex-col gap-4 overflow-y-auto border-r border-slate-200 bg-white px-3 py-4">
      <Link to="/dashboard" className="whitespace-nowrap px-3 pr-8 text-lg font-bold text-brand-700 lg:pr-3">
        <Logo /> Gym Membership
      </Link>
      {me.current_gym?.logo ? (
        // The current gym's own logo (uploaded on its settings page); its name is in the gym switcher beside it.
        <img src={me.current_gym.logo} alt={`${me.current_gym.name} logo`} className="mx-3 h-12 w-auto max-w-[12rem] object-contain object-left" />
      ) : null}
      <nav aria-label="Main">
        <ul className="space-y-1">
          {NAV.filter((e) => e.shouldRender(me)).map((entry) => {
            if (!isGroup(entry)) return <Entry key={entry.name} entry={entry} pathname={pathname} unread={unread} />;
            const children = entry.children.filter((c) => c.shouldRender(me));
            const childActive = children.some((c) => c.isActive(pathname));
            // <details> opens and closes without JavaScript; it starts open when a child is the current page.
            return (
              <li key={entry.name}>
                <details open={childActive} className="group/nav">
                  <summary className={`${itemClass(false)} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
                    <Icon name={entry.icon} />
                    <span className="flex-1">{entry.name}</span>
                    <Icon name="chevron" className="h-4 w-4 transition-transform group-open/nav:rotate-180" />
                  </summary>
                  <ul className="mt-1 space-y-1 pl-6">
                    {children.map((c) => (
                      <Entry key={c.name} entry={c} pathname={pathname} unread={unread} />
                    ))}
                  </ul>
                </details>
              </li>
            );
          })}
        </ul>
      </nav>

      <YourAccess me={me} />

      <div className="border-t border-slate-200 px-3 pt-3 text-sm">
        <p className="font-medium text-slate-900">{capitaliseWords(me.name)}</p>
        <p className="text-xs text-slate-600">{me.current_organisation?.name}</p>
        <Form method="post" action="/logout" className="mt-2">
          <button type="submit" className="inline-flex items-center gap-2 text-sm font-medium text-slate-700 hover:text-slate-900">
            <Icon name="logout" className="h-4 w-4" />
            Logout
          </button>
        </Form>
      </div>
    </div>
  );
}
