import { createServer } from "node:http";
import { expressEcho } from "../shared/express-echo";
import { listenFromEnv } from "./listen";

listenFromEnv(createServer(expressEcho()));
