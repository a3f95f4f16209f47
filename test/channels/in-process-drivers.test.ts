import { InProcessPresenceStore, InProcessPubSub } from "herald";
import { describePresenceContract } from "./presence-contract";
import { describePubSubContract } from "./pubsub-contract";

describePubSubContract("in-process", async () => new InProcessPubSub());
describePresenceContract("in-process", async () => new InProcessPresenceStore());
