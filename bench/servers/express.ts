import { createServer } from "node:http";
import { expressBaseline } from "../shared/express-baseline";
import { listenFromEnv } from "./listen";

listenFromEnv(createServer(expressBaseline()));
