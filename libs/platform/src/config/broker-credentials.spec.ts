import { z } from 'zod';
import { ConfigError } from './load-config';
import { platformConfigSchema } from './platform-config';
import { brokerCredentialProblem } from './broker-credentials';
import { serviceStarter } from '../bootstrap/start-service';

const config = (env: Record<string, string>) => platformConfigSchema.parse(env);

describe('broker credentials', () => {
  it("refuses RabbitMQ's default guest user, named or implied, on a broker elsewhere in production", () => {
    expect(brokerCredentialProblem(config({ NODE_ENV: 'production', AMQP_URL: 'amqp://guest:guest@rabbitmq:5672' }))).toMatch(/^AMQP_URL: /);
    expect(brokerCredentialProblem(config({ NODE_ENV: 'production', AMQP_URL: 'amqp://rabbitmq.internal:5672' }))).toMatch(/guest/);
    expect(brokerCredentialProblem(config({ NODE_ENV: 'production', AMQP_URL: 'amqps://guest@10.0.0.7' }))).toMatch(/guest/);
  });

  it("accepts a service's own user in production, and guest on a broker on this machine or outside production", () => {
    expect(brokerCredentialProblem(config({ NODE_ENV: 'production', AMQP_URL: 'amqp://esim-payments:s3cret@rabbitmq:5672' }))).toBeNull();
    expect(brokerCredentialProblem(config({ NODE_ENV: 'production', AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672' }))).toBeNull();
    expect(brokerCredentialProblem(config({ NODE_ENV: 'development', AMQP_URL: 'amqp://guest:guest@rabbitmq:5672' }))).toBeNull();
    expect(brokerCredentialProblem(config({ NODE_ENV: 'test' }))).toBeNull();
  });

  it('stops a production service with guest credentials before it builds anything', () => {
    let built = false;
    const start = serviceStarter({
      name: 'payments',
      configSchema: platformConfigSchema.extend({ EXTRA: z.string().optional() }),
      module: () => {
        built = true;
        throw new Error('the module was built');
      },
    });
    // Like any configuration error: thrown at once, a readable message from runService.
    expect(() => start({ NODE_ENV: 'production', AMQP_URL: 'amqp://guest:guest@rabbitmq:5672' })).toThrow(ConfigError);
    expect(built).toBe(false);
  });
});
