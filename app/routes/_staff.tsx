import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../domain/dates";
import { Logo } from "../components/auth-card";
import { requireApp } from "../lib/host.server";
import { requireStaff } from "../lib/session.server";

/** The signed-in back-office frame. The sidebar, switchers and search arrive with the shell issue. */
export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "backoffice");
  const { me } = await requireStaff(args);
  return { me };
}

export default function StaffLayout() {
  const { me } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-full flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
          <Link to="/dashboard" className="text-lg font-bold text-brand-700">
            <Logo /> Gym Membership
          </Link>
          <nav aria-label="Main" className="flex gap-4 text-sm">
            <NavLink to="/dashboard" className={({ isActive }) => (isActive ? "font-semibold text-brand-700" : "text-slate-700")}>
              Dashboard
            </NavLink>
          </nav>
          <div className="flex items-center gap-3 text-sm">
            <span className="text-right">
              <span className="block font-medium">{capitaliseWords(me.name)}</span>
              <span className="block text-xs text-slate-600">{me.current_organisation?.name}</span>
            </span>
            <Form method="post" action="/logout">
              <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50">
                Logout
              </button>
            </Form>
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
