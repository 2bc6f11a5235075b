import { Bunting } from "../clients/node/index.js";
const bunting = await Bunting.spawn({ storage: ":memory:" });
const flags = await bunting.subscribe({ channel: "featureFlags" }), banners = await bunting.subscribe({ channel: "banners" });
await bunting.changeUser({ userId: "ada" });
for (const updated of [flags.waitFor({ type: "DATA_UPDATED" }), banners.waitFor({ type: "DATA_UPDATED" })]) console.log(JSON.stringify(await updated));
await bunting.close();
