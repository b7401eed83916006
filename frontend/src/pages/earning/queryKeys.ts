/** Reads of the earning pages (keyed by URL: the default query function GETs `queryKey[0]`). */
export const OFFERWALLS_QUERY_KEY = ['/api/offerwalls'] as const;
export const TASKS_QUERY_KEY = ['/api/tasks'] as const;
/** /history's missions, a page at a time (the pages' own query function fetches each). */
export const TASK_HISTORY_QUERY_KEY = ['/api/tasks/history'] as const;
