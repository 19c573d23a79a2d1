/**
 * Whether a writer's `model=<id>` may run: the model must be `agent.model` or
 * listed in `agent.models`, and priced like any task's model (unpriced-model.ts),
 * so a comment can never turn the cost limits off. The app checks it before
 * dispatching and the Action again, since anyone with write access can dispatch
 * the workflow by hand. Pure.
 */
import type { ConfiguredPrices } from "../agent/pricing.ts";
import type { Provider } from "../agent/runner.ts";
import { unpricedModelRefusal } from "./unpriced-model.ts";

export interface ModelChoiceConfig {
  readonly provider: Provider;
  readonly model: string;
  /** `agent.models`; absent means none besides `model`. */
  readonly models?: readonly string[] | undefined;
  readonly pricing?: ConfiguredPrices;
}

/** The one-line refusal for `chosen`, or undefined when it may run. */
export function modelChoiceRefusal(
  chosen: string,
  agent: ModelChoiceConfig,
  /** The command that asks again once the model is allowed. */
  askAgain = "`/locus run`",
): string | undefined {
  const models = agent.models ?? [];
  if (chosen !== agent.model && !models.includes(chosen)) {
    const allowed = [agent.model, ...models].map((id) => `\`${id}\``).join(", ");
    return (
      `Model \`${chosen}\` is not allowed here; this repository allows ${allowed}. ` +
      `A maintainer can add it to \`agent.models\` in \`.github/locus.yml\`; then comment ${askAgain} again.`
    );
  }
  return unpricedModelRefusal(agent.provider, chosen, agent.pricing, askAgain);
}

/**
 * Why a mode must not start on `model`: when a command chose it, the allowlist
 * and the price; otherwise the price alone.
 */
export function taskModelRefusal(
  model: string,
  chosenByCommand: boolean,
  agent: ModelChoiceConfig,
  askAgain?: string,
): string | undefined {
  return chosenByCommand
    ? modelChoiceRefusal(model, agent, askAgain)
    : unpricedModelRefusal(agent.provider, model, agent.pricing, askAgain);
}
