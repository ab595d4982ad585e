const { paymentsTest } = require('./payments');

paymentsTest('file-1');
