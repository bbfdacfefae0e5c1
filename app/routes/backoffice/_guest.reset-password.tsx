import type { MetaFunction } from "@remix-run/node";
import { SetPasswordPage, setPasswordAction, setPasswordLoader } from "../../features/password/set-password";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Gym Membership" }];
export const loader = setPasswordLoader;
export const action = setPasswordAction;

export default function Page() {
  return <SetPasswordPage title="Choose a new password" />;
}
