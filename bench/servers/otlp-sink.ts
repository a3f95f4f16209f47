import { createServer } from "node:http";
import { listenFromEnv } from "./listen";

/**
 * An OTLP/HTTP receiver that keeps nothing: it reads each export whole and answers it as a
 * collector does (an empty response in the request's encoding), so a traced server pays for
 * building and sending its spans and for nothing the receiver does.
 */
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const json = (req.headers["content-type"] ?? "").startsWith("application/json");
    res.writeHead(200, { "Content-Type": json ? "application/json" : "application/x-protobuf" });
    res.end(json ? "{}" : undefined);
  });
});

listenFromEnv(server);
