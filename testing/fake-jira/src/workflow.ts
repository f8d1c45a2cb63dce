/** The one workflow, issue types and priorities every fake project shares (Jira's "simplified" defaults). */
export type StatusCategoryKey = "new" | "indeterminate" | "done";

export interface StatusDef {
  id: string;
  name: string;
  category: StatusCategoryKey;
}

export const statuses: readonly StatusDef[] = [
  { id: "10000", name: "To Do", category: "new" },
  { id: "3", name: "In Progress", category: "indeterminate" },
  { id: "10001", name: "In Review", category: "indeterminate" },
  { id: "10002", name: "Done", category: "done" },
];

/** Global transitions: any status can move to any other, as in a team-managed project. */
export const transitions: readonly { id: string; name: string; to: string }[] = [
  { id: "11", name: "To Do", to: "To Do" },
  { id: "21", name: "In Progress", to: "In Progress" },
  { id: "31", name: "In Review", to: "In Review" },
  { id: "41", name: "Done", to: "Done" },
];

export const statusCategories: Record<StatusCategoryKey, { id: number; colorName: string; name: string }> = {
  new: { id: 2, colorName: "blue-gray", name: "To Do" },
  indeterminate: { id: 4, colorName: "yellow", name: "In Progress" },
  done: { id: 3, colorName: "green", name: "Done" },
};

export const issueTypes: readonly { id: string; name: string; description: string; subtask: boolean }[] = [
  { id: "10001", name: "Task", description: "A small, distinct piece of work.", subtask: false },
  { id: "10002", name: "Bug", description: "A problem or error.", subtask: false },
  { id: "10003", name: "Story", description: "A feature expressed as a user goal.", subtask: false },
  {
    id: "10004",
    name: "Epic",
    description: "A big user story that needs to be broken down.",
    subtask: false,
  },
];

export const priorities: readonly { id: string; name: string }[] = [
  { id: "1", name: "Highest" },
  { id: "2", name: "High" },
  { id: "3", name: "Medium" },
  { id: "4", name: "Low" },
  { id: "5", name: "Lowest" },
];

export function findStatus(name: string): StatusDef | undefined {
  return statuses.find((s) => s.name.toLowerCase() === name.toLowerCase());
}
