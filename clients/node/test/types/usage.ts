// Uses of the client that must type-check, and mistakes that must not
// (each `@ts-expect-error` fails the check if its line compiles).

import {
  Bunting,
  BuntingError,
  BuntingTimeoutError,
  InvalidParamsError,
  type BuntingEvent,
  type DataUpdatedEvent,
  type FeatureFlag,
} from "../../index.js";

async function main(): Promise<void> {
  const client = await Bunting.spawn({ storage: ":memory:", pollInterval: 1, header: ["A: b"], framing: "lsp", callTimeout: 1000 });
  // @ts-expect-error an unknown framing
  await Bunting.spawn({ framing: "xml" });
  // @ts-expect-error header takes a list
  await Bunting.spawn({ header: "A: b" });

  const flags = await client.subscribe({ channel: "featureFlags" });
  if (flags === null) return;
  const updated = await flags.waitFor({ type: "DATA_UPDATED", reason: "AUTO_SERVER_REFRESH", timeout: 500 });
  const list: FeatureFlag[] = updated.cacheSnapshot.featureFlags;
  const reason: "AUTO_SERVER_REFRESH" | "MANUAL_SERVER_REFRESH" | "CLIENT_ACTION" = updated.reason;
  // @ts-expect-error a featureFlags snapshot has no contentCards
  updated.cacheSnapshot.contentCards;
  // @ts-expect-error no such event type
  await flags.waitFor({ type: "DATA_UPDATE" });
  const impression = await flags.waitFor({ type: "IMPRESSION", action: "ENQUEUED" });
  const flag: FeatureFlag = impression.flag;
  // @ts-expect-error a featureFlags subscription never clicks
  await flags.waitFor({ type: "CLICK" });
  for await (const event of flags) {
    if (event.type === "ERROR") {
      const retry: string = event.retryState;
    }
  }
  flags.on("event", (event) => {
    const type: BuntingEvent["type"] = event.type;
  });

  const cards = await client.subscribe({ channel: "contentCards" });
  const click = await cards!.waitFor({ type: ["CLICK", "DISMISS"] });
  const clickedCard: string = click.card.id;

  const anyUpdate: DataUpdatedEvent<"banners"> = await client.waitFor({ type: "DATA_UPDATED", channel: "banners" });
  const banners = anyUpdate.cacheSnapshot.banners;

  const updates = await client.subscribeToUpdates({ channel: "banners" });
  const update = await updates!.waitFor();
  const placements = Object.keys(update.banners);

  await client.changeUser({ userId: "ada", attributes: { tier: "gold" } });
  // @ts-expect-error userId is required
  await client.changeUser({ attributes: {} });
  // @ts-expect-error a misspelt param
  await client.changeUser({ userID: "ada" });
  await client.status();
  await client.status({}, { timeout: 100 });
  const snapshot = await client.getSnapshot({ channel: "contentCards" });
  const unviewed: number = snapshot.contentCards.unviewedCount;
  const maybeFlag = await client.getFeatureFlag({ id: "dark-mode" });
  // @ts-expect-error the flag may be null
  maybeFlag.enabled;
  // @ts-expect-error flags are not clicked
  await client.logClick({ channel: "featureFlags", id: "x" });
  const resolution = await client.evaluateFlag({ flagKey: "f", context: { targetingKey: "ada", tier: "gold" } });
  const variant: string | null = resolution.variant;
  const raw = await client.call<{ result: unknown }>("evaluate", { rule: { "==": [1, 1] } });

  try {
    await client.logDismiss({ channel: "contentCards", id: "welcome" });
  } catch (error) {
    if (error instanceof InvalidParamsError) {
      const field: string = error.data.field;
    } else if (error instanceof BuntingError) {
      const code: number = error.code;
      const why = error.reason;
    } else if (error instanceof BuntingTimeoutError) {
      const ms: number = error.timeout;
    }
  }

  const exit = await client.close({ timeout: 1000 });
  const killed: boolean = exit.killed;
  await client[Symbol.asyncDispose]();
}

void main;
