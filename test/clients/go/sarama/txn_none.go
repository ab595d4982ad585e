//go:build sarama122

package main

import (
	"time"

	"kafkaesque/test/clients/go/compat"
)

// sarama before 1.37 has no transactional producer: main refuses the scenario.
const hasTransactions = false

func transactions(compat.Args, compat.Out, time.Time) {}
