/** Messages' limits, without the schemas (./schemas/messaging.ts), so the thread page loads no zod. */
export const MESSAGE_MAX = 2000;
export const TOO_LONG = `A message can be at most ${MESSAGE_MAX.toLocaleString("en-NZ")} characters: split it in two`;
