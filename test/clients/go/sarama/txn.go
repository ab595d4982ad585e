//go:build !sarama122

package main

import (
	"time"

	"github.com/IBM/sarama"
	"kafkaesque/test/clients/go/compat"
)

const hasTransactions = true

// transactions: commit1 committed, abort aborted once its records are in the
// log (SendMessages returns when they are acknowledged), commit2 committed;
// then a read_committed read-back until all of commit2 is read.
func transactions(a compat.Args, out compat.Out, deadline time.Time) {
	c := config(a, "compat-sarama-txn")
	c.Producer.Idempotent = true
	c.Producer.Transaction.ID = a.TxnID
	c.Producer.Transaction.Timeout = 30 * time.Second
	c.Net.MaxOpenRequests = 1
	p, err := sarama.NewSyncProducer(a.Bootstrap, c)
	if err != nil {
		compat.Fail("transactional producer: %v", err)
	}
	defer p.Close()
	for _, step := range []struct {
		tag    string
		commit bool
	}{{"commit1", true}, {"abort", false}, {"commit2", true}} {
		if err := p.BeginTxn(); err != nil {
			compat.Fail("BeginTxn: %v", err)
		}
		batch := []*sarama.ProducerMessage{}
		for _, m := range compat.MessagesFor(step.tag, a.N, a.Partitions) {
			batch = append(batch, &sarama.ProducerMessage{Topic: a.Topic, Partition: m.Partition, Key: sarama.StringEncoder(m.Key), Value: sarama.StringEncoder(m.Value)})
		}
		if err := p.SendMessages(batch); err != nil {
			compat.Fail("send (%s): %v", step.tag, err)
		}
		if step.commit {
			err = p.CommitTxn()
		} else {
			err = p.AbortTxn()
		}
		if err != nil {
			compat.Fail("end of transaction %s: %v", step.tag, err)
		}
	}
	out["produced"] = map[string]int{"committed": 2 * a.N, "aborted": a.N}
	want := map[string]bool{}
	for _, m := range compat.MessagesFor("commit2", a.N, a.Partitions) {
		want[m.Value] = true
	}
	rc := config(a, "compat-sarama-reader")
	rc.Consumer.IsolationLevel = sarama.ReadCommitted
	out["read"] = readBack(a, rc, deadline, func(r []compat.Record) bool {
		seen := 0
		for _, x := range r {
			if want[x[2].(string)] {
				seen++
			}
		}
		return seen >= len(want)
	})
}
