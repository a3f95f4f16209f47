import { useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { describeParallelRedemption } from "./support/parallel-redemption";

const postgres = usePostgresSchema("auth_parallel_redemption_memory");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" } });

describeParallelRedemption();
