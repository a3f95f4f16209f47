import { createServer } from "node:http";
import { nodeBaseline } from "../shared/node-baseline";
import { listenFromEnv } from "./listen";

listenFromEnv(createServer(nodeBaseline));
