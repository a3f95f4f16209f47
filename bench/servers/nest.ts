import "reflect-metadata";
import { Controller, Get, Module, PipeTransform, Query, UnprocessableEntityException } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import type { z } from "zod";
import { echoInputs, echoResponse, type EchoParams } from "../shared/echo";
import { helloResponse } from "../shared/hello";
import { countRequest } from "../shared/request-counter";
import { exitOnSignal } from "./listen";

/** Nest's idiom for validation: a pipe, here running the same zod schema. */
class ZodValidationPipe implements PipeTransform {
  constructor(private readonly schema: z.ZodType) {}

  transform(value: unknown): unknown {
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) throw new UnprocessableEntityException(parsed.error.issues);
    return parsed.data;
  }
}

@Controller("bench")
class BenchController {
  @Get("echo")
  echo(@Query(new ZodValidationPipe(echoInputs)) params: EchoParams) {
    return echoResponse(params);
  }

  @Get("hello")
  hello() {
    return helloResponse();
  }
}

@Module({ controllers: [BenchController] })
class BenchModule {}

/** The NestJS baseline: a controller on the Express platform, one global middleware, no logger. */
async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(BenchModule, { logger: false });
  app.disable("x-powered-by");
  app.setGlobalPrefix("api");
  app.use((_req: unknown, _res: unknown, next: () => void) => {
    countRequest();
    next();
  });
  exitOnSignal();
  await app.listen(Number(process.env.PORT), "127.0.0.1");
}

void main();
