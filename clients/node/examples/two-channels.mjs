#!/usr/bin/env node
// Spawns Bunting, subscribes to two channels, changes user, and prints each
// channel's DATA_UPDATED as it arrives, whichever comes first.
//
//   node examples/two-channels.mjs [--iterations N] [--users ada,grace] [--definitions PATH] [--framing lsp]
//
// Each line: iteration, user, channel, event type, reason, and the ids of the
// enabled flags or of the listed cards.

import { parseArgs } from "node:util";
import { Bunting } from "../index.js";

const { values } = parseArgs({
  options: {
    iterations: { type: "string", default: "1" },
    users: { type: "string", default: "ada,grace" },
    definitions: { type: "string" },
    framing: { type: "string", default: "ndjson" },
  },
});
const users = values.users.split(",");

const client = await Bunting.spawn({ storage: ":memory:", definitions: values.definitions, framing: values.framing });
try {
  const flags = await client.subscribe({ channel: "featureFlags" });
  const cards = await client.subscribe({ channel: "contentCards" });
  for (let iteration = 0; iteration < Number(values.iterations); iteration++) {
    const userId = users[iteration % users.length];
    await client.changeUser({ userId, attributes: { tier: "gold" } });
    const print = (event) => {
      const ids =
        event.channel === "featureFlags"
          ? event.cacheSnapshot.featureFlags.filter((flag) => flag.enabled).map((flag) => flag.id)
          : event.cacheSnapshot.contentCards.cards.map((card) => card.id);
      console.log([iteration, userId, event.channel, event.type, event.reason, ids.join(",") || "-"].join(" "));
    };
    // Each waits on its own subscription: neither takes the other's event.
    await Promise.all([flags.waitFor({ type: "DATA_UPDATED" }).then(print), cards.waitFor({ type: "DATA_UPDATED" }).then(print)]);
  }
} finally {
  await client.close();
}
