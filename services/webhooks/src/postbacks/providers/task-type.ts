import type { TaskType } from '@esim/contracts';

/** product-decisions.md: surveys and offers, app installs, video and ad views, anything else. */
const RULES: ReadonlyArray<[RegExp, TaskType]> = [
  [/survey|quiz|poll|questionnaire/i, 'offer_completion'],
  [/video|watch|\bads?\b/i, 'ad_view'],
  [/install|download|\bapps?\b|\bgames?\b|\bplay\b|\blevel\b/i, 'app_install'],
  [/offer|sign.?up|register|shop|purchase|trial/i, 'offer_completion'],
];

/** The task type a provider's offer category or name suggests, else `fallback`. */
export function taskTypeOf(hint: string | undefined, fallback: TaskType): TaskType {
  if (!hint) return fallback;
  return RULES.find(([pattern]) => pattern.test(hint))?.[1] ?? fallback;
}
