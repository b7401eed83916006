import type { TaskKind } from '@esim/contracts';

/**
 * Words of the walls' categories and offer names, to the product's kinds (TASK_KINDS), first match
 * wins: a survey before anything else ("Video survey" is a survey), an install before a game
 * ("Install game app" is what the person did), a game by its goals ("Reach level 10").
 */
const RULES: ReadonlyArray<[RegExp, TaskKind]> = [
  [/survey|quiz|poll|questionnaire/i, 'survey'],
  [/video|watch|\bads?\b/i, 'video_ad'],
  [/install|download|\bapps?\b/i, 'app_install'],
  [/\bgames?\b|\bgaming\b|\bplay\b|\blevel\b/i, 'game'],
  [/sign.?up|register|registration|trial|subscri/i, 'signup'],
  [/shop|purchase|\bbuy\b|deposit|\border\b/i, 'purchase'],
  [/offer/i, 'offer'],
];

/** The kind a wall's offer category or name says, else `fallback` (what the wall pays for by default). */
export function taskKindOf(hint: string | undefined, fallback: TaskKind): TaskKind {
  if (!hint) return fallback;
  return RULES.find(([pattern]) => pattern.test(hint))?.[1] ?? fallback;
}
