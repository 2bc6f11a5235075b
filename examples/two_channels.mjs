import { Bunting } from "../clients/node/index.js";
const bunting = await Bunting.spawn({ storage: ":memory:" });
const flags = await bunting.subscribe({ channel: "featureFlags" }), banners = await bunting.subscribe({ channel: "banners" });
await bunting.changeUser({ userId: "ada" });
for (const events of [flags, banners]) console.log(JSON.stringify(await events.waitFor({ type: "DATA_UPDATED" })));
await bunting.close();
