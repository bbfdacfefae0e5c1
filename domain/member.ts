/** Member answers and labels (SPEC §3 Member). */
export const CONFIDENCE_ANSWERS = [
  "first_time",
  "been_but_not_sure_what_to_do",
  "been_but_not_achieved_goals",
  "been_but_stopped_going",
  "experienced_and_confident",
] as const;
export type ConfidenceAnswer = (typeof CONFIDENCE_ANSWERS)[number];

export const CONFIDENCE_LABELS: Record<ConfidenceAnswer, string> = {
  first_time: "First time at a gym",
  been_but_not_sure_what_to_do: "Been before, but not sure what to do",
  been_but_not_achieved_goals: "Been before, but didn't reach their goals",
  been_but_stopped_going: "Been before, but stopped going",
  experienced_and_confident: "Experienced and confident",
};

export const HEAR_ABOUT_US_ANSWERS = [
  "friend",
  "physical_marketing",
  "google_advert",
  "facebook_or_instagram",
  "google_search",
  "been_member_here_before",
  "other",
] as const;
export type HearAboutUsAnswer = (typeof HEAR_ABOUT_US_ANSWERS)[number];

export const HEAR_ABOUT_US_LABELS: Record<HearAboutUsAnswer, string> = {
  friend: "A friend",
  physical_marketing: "Posters or flyers",
  google_advert: "A Google ad",
  facebook_or_instagram: "Facebook or Instagram",
  google_search: "Searching on Google",
  been_member_here_before: "Been a member here before",
  other: "Other",
};

/** "Other: saw the sign on the bus" for other with a value; the label otherwise; null when unanswered or unknown. */
export function hearAboutUsText(answer: string | null | undefined, other?: string | null): string | null {
  if (!answer) return null;
  if (answer === "other") return other ? `Other: ${other}` : "Other";
  return (HEAR_ABOUT_US_LABELS as Record<string, string>)[answer] ?? null;
}

export function confidenceText(answer: string | null | undefined): string | null {
  return answer ? ((CONFIDENCE_LABELS as Record<string, string>)[answer] ?? null) : null;
}
