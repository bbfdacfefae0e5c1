/** Each word capitalised, as SPEC §3 shows a user's name. */
export const capitaliseWords = (name: string) => name.replace(/(^|\s)(\S)/g, (_m, sp: string, ch: string) => sp + ch.toUpperCase());
