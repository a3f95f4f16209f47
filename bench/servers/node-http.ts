import { createServer } from "node:http";
import { nodeEcho } from "../shared/node-echo";
import { listenFromEnv } from "./listen";

listenFromEnv(createServer(nodeEcho));
