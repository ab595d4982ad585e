// kfake-broker: franz-go's in-memory fake cluster (pkg/kfake) as a process,
// so bench/ can measure it beside kafkaesque and librdkafka's mock in the
// same run. Built by bench/lib/kfake.mjs into bench/.ref/bin/kfake-broker.
//
//	kfake-broker -brokers 3 -port 20000 -lifetime 60 -t name:partitions:replication ...
//
// Prints one ready line on stdout once every broker listens, the same JSON
// shape `kafkaesque start --json` prints, which bench/lib/broker-process.mjs
// waits for:
//
//	{"bootstrap":"127.0.0.1:20000,127.0.0.1:20001","brokers":2,"kfake":"v0.0.0-..."}
//
// It exits on SIGTERM or SIGINT, when its stdin closes (with -stdin, for a
// parent that may die without a signal), and after -lifetime seconds at the
// latest, so a benchmark can never leave it behind.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// topicFlags collects -t name:partitions[:replication]; kfake keeps one copy
// of each partition, so the replication factor is accepted and ignored.
type topicFlags map[string]int32

func (t topicFlags) String() string { return "" }

func (t topicFlags) Set(s string) error {
	parts := strings.Split(s, ":")
	if len(parts) < 1 || len(parts) > 3 || parts[0] == "" {
		return fmt.Errorf("want name[:partitions[:replication]], got %q", s)
	}
	partitions := int64(-1)
	if len(parts) >= 2 {
		n, err := strconv.ParseInt(parts[1], 10, 32)
		if err != nil || n < 1 {
			return fmt.Errorf("partitions of %q: want a number >= 1", s)
		}
		partitions = n
	}
	t[parts[0]] = int32(partitions)
	return nil
}

func kfakeVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/twmb/franz-go/pkg/kfake" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	brokers := flag.Int("brokers", 1, "number of brokers")
	port := flag.Int("port", 0, "first port; brokers listen on port, port+1, ... (0: any free ports)")
	lifetime := flag.Int("lifetime", 600, "exit after this many seconds at the latest")
	partitions := flag.Int("partitions", 1, "partitions of an auto-created topic or a CreateTopics with -1")
	autoCreate := flag.Bool("auto-create", true, "create unknown topics on Metadata (as a default Kafka broker does)")
	watchStdin := flag.Bool("stdin", false, "exit when stdin closes")
	topics := make(topicFlags)
	flag.Var(topics, "t", "topic to create at start, name:partitions[:replication] (repeatable)")
	flag.Parse()
	if *brokers < 1 || *port < 0 || *port+*brokers > 65536 || *lifetime < 1 || *partitions < 1 {
		fmt.Fprintln(os.Stderr, "kfake-broker: -brokers >= 1, -port in 0..65535, -lifetime >= 1, -partitions >= 1")
		os.Exit(2)
	}

	opts := []kfake.Opt{kfake.NumBrokers(*brokers), kfake.DefaultNumPartitions(*partitions)}
	if *port > 0 {
		ports := make([]int, *brokers)
		for i := range ports {
			ports[i] = *port + i
		}
		opts = append(opts, kfake.Ports(ports...))
	}
	if *autoCreate {
		opts = append(opts, kfake.AllowAutoTopicCreation())
	}
	for name, n := range topics {
		opts = append(opts, kfake.SeedTopics(n, name))
	}

	c, err := kfake.NewCluster(opts...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kfake-broker: %v\n", err)
		os.Exit(1)
	}

	addrs := c.ListenAddrs()
	ready, _ := json.Marshal(map[string]any{
		"bootstrap": strings.Join(addrs, ","),
		"brokers":   len(addrs),
		"kfake":     kfakeVersion(),
		"pid":       os.Getpid(),
	})
	fmt.Println(string(ready))

	stop := make(chan string, 3)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() { stop <- (<-sigs).String() }()
	go func() {
		time.Sleep(time.Duration(*lifetime) * time.Second)
		stop <- "lifetime over"
	}()
	if *watchStdin {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			stop <- "stdin closed"
		}()
	}
	why := <-stop
	fmt.Fprintf(os.Stderr, "kfake-broker: stopping (%s)\n", why)
	// Close waits for in-flight requests; never longer than a second here.
	done := make(chan struct{})
	go func() {
		c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}
