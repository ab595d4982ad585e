const { paymentsTest } = require('./payments');

paymentsTest('file-2');
