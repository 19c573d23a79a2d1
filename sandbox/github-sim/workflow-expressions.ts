/**
 * GitHub Actions expressions (`${{ … }}`) evaluated with GitHub's own
 * evaluator (`@actions/expressions`), so a workflow's `run-name` comes out as
 * GitHub would write it, from the workflow file itself.
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/evaluate-expressions-in-workflows-and-actions
 */
import { Evaluator, Lexer, Parser, data } from "@actions/expressions";

export type ExpressionContexts = Readonly<Record<string, Readonly<Record<string, string>>>>;

function dictionary(values: Readonly<Record<string, string>>): data.Dictionary {
  return new data.Dictionary(
    ...Object.entries(values).map(([key, value]) => ({ key, value: new data.StringData(value) })),
  );
}

// Contexts a workflow may name; the simulator knows only what the caller passes, the rest are empty.
const KNOWN_CONTEXTS = [
  "github",
  "inputs",
  "vars",
  "secrets",
  "env",
  "job",
  "jobs",
  "steps",
  "runner",
  "needs",
];

export function evaluateExpression(expression: string, given: ExpressionContexts): string {
  const contexts: ExpressionContexts = {
    ...Object.fromEntries(KNOWN_CONTEXTS.map((name) => [name, {}])),
    ...given,
  };
  const { tokens } = new Lexer(expression).lex();
  const parsed = new Parser(tokens, Object.keys(contexts), []).parse();
  const context = new data.Dictionary(
    ...Object.entries(contexts).map(([key, values]) => ({ key, value: dictionary(values) })),
  );
  return new Evaluator(parsed, context).evaluate().coerceString();
}

/** A string with `${{ … }}` parts, such as `run-name`, with each part evaluated. */
export function evaluateTemplate(template: string, contexts: ExpressionContexts): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_match, expression: string) =>
    evaluateExpression(expression.trim(), contexts),
  );
}
