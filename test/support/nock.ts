// nock for the tests, on Node 20. nock 15 intercepts fetch through
// @mswjs/interceptors 0.44, which calls Promise.withResolvers (Node 22+) at
// request time; on Node 20 this module supplies it first. Import nock from here.
import nock from 'nock';

if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export default nock;
