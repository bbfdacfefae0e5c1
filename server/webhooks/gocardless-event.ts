/** A GoCardless event (https://developer.gocardless.com/api-reference#core-endpoints-events). */
export interface GoCardlessEvent {
  id: string;
  created_at: string;
  resource_type: string;
  action: string;
  links: Record<string, string>;
  details?: { cause?: string; description?: string; origin?: string };
}
