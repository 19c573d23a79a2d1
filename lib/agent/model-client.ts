/**
 * What the agent loop needs of a model client: the Messages API's streaming call. Anthropic's
 * client, and the Bedrock and Vertex clients (lib/model-host), each give it.
 */
import type Anthropic from "@anthropic-ai/sdk";

export interface ModelClient {
  readonly messages: Pick<Anthropic["messages"], "stream">;
}
