/** What a switcher shows (switcher.tsx, and the menu it becomes: switcher-menu.tsx). */
export interface SwitcherProps {
  label: string;
  action: string;
  name: string;
  options: { id: number; name: string }[];
  currentId: number | null | undefined;
  listClassName?: string;
}
