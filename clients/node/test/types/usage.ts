// Uses of the client that must type-check, and mistakes that must not
// (each `@ts-expect-error` fails the check if its line compiles).

import {
  Bunting,
  BuntingProvider,
  ProviderEvents,
  BuntingError,
  BuntingTimeoutError,
  InvalidParamsError,
  MethodNotFoundError,
  NotSyncedError,
  type BuntingEvent,
  type Channel,
  type DefinitionsEvent,
  type DataUpdatedEvent,
  type FeatureFlag,
} from "../../index.js";

async function main(): Promise<void> {
  const client = await Bunting.spawn({ storage: ":memory:", pollInterval: 1, header: ["A: b"], framing: "lsp", callTimeout: 1000 });
  // @ts-expect-error an unknown framing
  await Bunting.spawn({ framing: "xml" });
  // @ts-expect-error header takes a list
  await Bunting.spawn({ header: "A: b" });
  await Bunting.spawn({ strict: true, startWithoutDefinitions: true, shutdownTimeout: 2 });

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
  const tracked = await client.track({ name: "checkout-completed", value: 42.5, details: { items: 3 } });
  const custom = await flags.waitFor({ type: "CUSTOM", action: "FLUSHED", predicate: (event) => event.type === "CUSTOM" && event.eventId === tracked.eventId });
  const trackedName: string = custom.event.name;
  const trackedValue: number | undefined = custom.event.value;
  // @ts-expect-error a tracked value is a number
  await client.track({ name: "x", value: "3" });
  // @ts-expect-error a name is required
  await client.track({ value: 3 });

  const cards = await client.subscribe({ channel: "contentCards" });
  const click = await cards!.waitFor({ type: ["CLICK", "DISMISS"] });
  const clickedCard: string = click.card.id;
  // @ts-expect-error CUSTOM events go to featureFlags subscriptions only
  await cards!.waitFor({ type: "CUSTOM" });
  const inbox = await client.subscribe({ channel: "contentCards", extras: { feed: "inbox" } });
  const feed = await inbox!.waitFor({ type: "CACHE_REPLAY" });
  const feedUnviewed: number = feed.cacheSnapshot.contentCards.unviewedCount;
  // @ts-expect-error extras choose content cards only
  await client.subscribe({ channel: "banners", extras: { feed: "inbox" } });
  // @ts-expect-error extras values are strings, as the cards' extras are
  await client.getSnapshot({ channel: "contentCards", extras: { feed: 1 } });

  const definitions = await client.subscribeToDefinitions();
  if (definitions === null) return;
  const changed = await definitions.waitFor({ type: "CHANGED" });
  const flagsChanged: string[] = changed.flagsChanged;
  const definitionsError = await definitions.waitFor({ type: "ERROR", reason: "INVALID_SERVER_DATA" });
  const stale: boolean = definitionsError.stale;
  // @ts-expect-error definitions subscriptions have no DATA_UPDATED
  await definitions.waitFor({ type: "DATA_UPDATED" });
  for await (const event of definitions) {
    const definitionsEvent: DefinitionsEvent = event;
  }
  const ready = await client.waitFor({ type: "READY" });
  const loadedAt: number = ready.loadedAt;
  const eitherError = await client.waitFor({ type: "ERROR" });
  // @ts-expect-error without a channel, an ERROR may be a definitions one, which has no channel
  const errorChannel: Channel = eitherError.channel;

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
  const inboxSnapshot = await client.getSnapshot({ channel: "contentCards", extras: { feed: "inbox" } });
  const inboxCards: string[] = inboxSnapshot.contentCards.cards.map((card) => card.extras.deeplink ?? card.id);
  // @ts-expect-error extras choose content cards only
  await client.getSnapshot({ channel: "featureFlags", extras: {} });
  const status = await client.status();
  const loaded: boolean = status.definitions.loaded;
  const pointers: string[] = status.definitions.problems.map((problem) => `${problem.pointer} ${problem.line}:${problem.column}`);
  const maybeFlag = await client.getFeatureFlag({ id: "dark-mode" });
  // @ts-expect-error the flag may be null
  maybeFlag.enabled;
  // @ts-expect-error flags are not clicked
  await client.logClick({ channel: "featureFlags", id: "x" });
  const resolution = await client.evaluateFlag({ flagKey: "f", context: { targetingKey: "ada", tier: "gold" } });
  const variant: string | null = resolution.variant;
  const anyValue: unknown = resolution.value;
  const asBoolean = await client.evaluateFlag({ flagKey: "f", context: {}, type: "boolean" });
  const on: boolean | null = asBoolean.value;
  // @ts-expect-error asked for a boolean, the value is no string
  const notString: string | null = asBoolean.value;
  const asObject = await client.evaluateFlag({ flagKey: "f", context: {}, type: "object" });
  const config: { [key: string]: unknown } | unknown[] | null = asObject.value;
  const count: number | null = (await client.evaluateFlag({ flagKey: "f", context: {}, type: "integer" })).value;
  // @ts-expect-error no such flag type
  await client.evaluateFlag({ flagKey: "f", context: {}, type: "number" });
  const owner = asBoolean.metadata?.owner;
  const message: string | undefined = asBoolean.errorMessage;
  const all = await client.evaluateFlags({ context: { targetingKey: "ada" } });
  const reasons: string[] = Object.values(all.flags).map((flag) => flag.reason);
  const some = await client.evaluateFlags({ context: {}, flagKeys: ["a", "b"] });
  // @ts-expect-error the context is required
  await client.evaluateFlags({ flagKeys: ["a"] });
  const raw = await client.call<{ result: unknown }>("evaluate", { rule: { "==": [1, 1] } });

  try {
    await client.logDismiss({ channel: "contentCards", id: "welcome" });
  } catch (error) {
    if (error instanceof InvalidParamsError) {
      const field: string = error.data.field;
    } else if (error instanceof NotSyncedError) {
      const channel: Channel = error.data.channel;
    } else if (error instanceof MethodNotFoundError) {
      const suggestion: string | undefined = error.data.suggestion;
    } else if (error instanceof BuntingError) {
      const code: number = error.code;
      const why = error.reason;
    } else if (error instanceof BuntingTimeoutError) {
      const ms: number = error.timeout;
    }
  }

  const provider = new BuntingProvider(client, { paradigm: "static" });
  // @ts-expect-error the paradigms are "dynamic" and "static"
  new BuntingProvider(client, { paradigm: "statik" });
  await provider.initialize({ targetingKey: "ada", tier: "gold" });
  const enabled: boolean = (await provider.resolveBooleanEvaluation("dark-mode", false, { targetingKey: "ada" })).value;
  const layout: { columns: number } = (await provider.resolveObjectEvaluation("layout", { columns: 1 })).value;
  // @ts-expect-error a string flag's default is a string
  provider.resolveStringEvaluation("greeting", 1);
  provider.events.addHandler(ProviderEvents.ConfigurationChanged, (details) => details.flagsChanged?.length);
  provider.track("checkout", { targetingKey: "ada" }, { value: 9.5, sku: "boots" });
  await provider.onClose();
  const spawned = new BuntingProvider({ storage: ":memory:" });

  const exit = await client.close({ timeout: 1000 });
  const killed: boolean = exit.killed;
  await client[Symbol.asyncDispose]();
}

void main;
