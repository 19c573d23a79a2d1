/**
 * A model with no known price would count as free, which silently turns both
 * cost limits (per task and per day) off. So no mode starts on such a model
 * unless config gives its price (`agent.pricing`) or the provider reports its
 * own cost (Claude Code does). An ACP agent runs a model of its own choosing, so
 * `agent.model`'s price says nothing about it: its runner holds it to the
 * limits on the cost it reports, or stops it (lib/agent/runners/acp-cost.ts). Pure.
 */
import { modelPrice, type ConfiguredPrices } from "../agent/pricing.ts";
import type { Provider } from "../agent/runner.ts";

const NOT_PRICED_BY_MODEL: readonly Provider[] = ["claude-code", "acp"];

export function unpricedModelRefusal(
  provider: Provider,
  model: string,
  configured: ConfiguredPrices | undefined,
  /** The command that asks again once the price is given. */
  askAgain = "`/locus run`",
): string | undefined {
  if (NOT_PRICED_BY_MODEL.includes(provider) || modelPrice(model, configured) !== undefined) return undefined;
  return (
    `Locus does not know the price of model \`${model}\`, so it could not hold the cost limits. ` +
    "Give its price in `.github/locus.yml` (`agent.pricing: { " +
    `"${model}": { input: 3, output: 15 } }\`, US dollars per million tokens) or choose a priced model, then comment ${askAgain}.`
  );
}
