/** What the Action was asked to do: its mode and what the mode works on (from the `mode` input and its companions). */
export type ModeRequest =
  | { readonly mode: "issue"; readonly issues: readonly number[] }
  | { readonly mode: "sprint"; readonly milestone: number }
  | { readonly mode: "iterate"; readonly pr: number }
  | { readonly mode: "review"; readonly pr: number }
  | { readonly mode: "plan"; readonly issue: number }
  | { readonly mode: "ask"; readonly issue?: number; readonly pr?: number }
  | { readonly mode: "stale" }
  | { readonly mode: "fix-ci"; readonly pr: number }
  | { readonly mode: "rebase"; readonly pr: number };
