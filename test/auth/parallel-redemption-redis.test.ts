import { useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { describeParallelRedemption } from "./support/parallel-redemption";

const postgres = usePostgresSchema("auth_parallel_redemption_redis");
const { prefix } = useTestRedis("auth-parallel-redemption");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: TEST_REDIS_URL, NAME: prefix.slice(0, -1), LOG_LEVEL: "fatal" } });

describeParallelRedemption();
