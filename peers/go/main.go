// Command peers runs the Go implementations that aeslab measures itself against, and prints
// JSON records on stdout for the aeslab CLI (which runs it as a child process):
//
//	peers aez -sizes 1,32,512 [-quick]   Yawning's AEZ: ns per Encrypt (tau 16, no AD)
//	peers aez-check -size N              hex of Encrypt(the fixed test inputs), to check output
//	peers ctr -key HEX -iv HEX -sizes 1024,4096 [-quick]
//	                                     crypto/aes + crypto/cipher CTR: ns per message, each
//	                                     under its own IV (messageIV)
//	peers ctr-check -key HEX -iv HEX -size N
//	                                     hex of CTR over the message byte(7i+3), to check
//	                                     output: under the IV, then under message 1's IV
//	peers gcm -key HEX -sizes 1024,4096 [-quick]
//	                                     crypto/aes + cipher.NewGCM: ns per Seal (aeslab's
//	                                     16-byte AD; each message under its own nonce,
//	                                     messageNonce)
//	peers gcm-check -key HEX -size N     hex of ciphertext ‖ tag of the message byte(7i+3):
//	                                     under aeslab's bench nonce, then message 1's nonce
//	peers gcm-open -key HEX -sizes 1024,4096 [-quick]
//	                                     the same GCM: ns per Open, in place, every one
//	                                     verifying (exits 1 if one does not)
//
// Build with -tags noasm for Yawning's portable constant-time (bitsliced) path.
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/Yawning/aez"
)

// The inputs aeslab uses for the same check: a 48-byte key, a 16-byte nonce, no AD, tau 16.
func testKey() []byte   { return fill(48, 7, 1) }
func testNonce() []byte { return fill(16, 1, 0) }
func fill(n, mul, add int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*mul + add)
	}
	return b
}

type ctrRecord struct {
	Impl    string  `json:"impl"`
	Backend string  `json:"backend"`
	Face    string  `json:"face"`
	KeyBits int     `json:"key_bits"`
	Bytes   int     `json:"bytes"`
	Threads int     `json:"threads"`
	NsPerOp float64 `json:"ns_per_op"`
}

// ctrStream is AES-CTR with Go's standard library (128-bit big-endian counter, as SP 800-38A).
func ctrStream(key, iv []byte) (cipher.Stream, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewCTR(block, iv), nil
}

func decodeHex(name, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "-%s is not hex: %v\n", name, err)
		os.Exit(2)
	}
	return b
}

// The nonce and AD of `aeslab bench gcm`.
var (
	gcmNonce = []byte{0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88}
	gcmAD    = []byte("sixteen byte AD!")
)

// messageNonce writes the nonce of message seq into dst (12 bytes), as aeslab's bench gcm makes
// its own (peers::gcm::message_nonce) and TLS 1.3 does: seq, big-endian, XORed into the last 8
// bytes of the fixed nonce.
func messageNonce(dst []byte, seq uint64) {
	copy(dst, gcmNonce)
	binary.BigEndian.PutUint64(dst[4:], binary.BigEndian.Uint64(gcmNonce[4:])^seq)
}

// messageIV writes the IV of CTR message seq into dst (16 bytes): seq, big-endian, XORed into
// the IV's first 8 bytes, so each message's counter blocks start where the IV's do (aeslab's
// peers::ctr::message_iv).
func messageIV(dst, iv []byte, seq uint64) {
	copy(dst, iv)
	binary.BigEndian.PutUint64(dst, binary.BigEndian.Uint64(iv)^seq)
}

func gcmAead(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// openNsPerOp times aead.Open in place on m sealed, as aeslab's bench gcm times its peers:
// m sealed is c under tag tc, and c sealed is m again under tm (the keystream is the same), so
// opening c with tc leaves m and opening m with tm leaves c. The timed call alternates the
// two, so every Open verifies and nothing is copied but the 16-byte tag.
func openNsPerOp(aead cipher.AEAD, m []byte, target time.Duration, rounds int) (float64, error) {
	n := len(m)
	c := aead.Seal(nil, gcmNonce, m, gcmAD)
	again := aead.Seal(nil, gcmNonce, c[:n], gcmAD)
	if !bytes.Equal(again[:n], m) {
		return 0, fmt.Errorf("sealing the ciphertext did not give the message back")
	}
	tags := [2][]byte{c[n:], again[n:]}
	want := [2][]byte{m, c[:n]}
	buf := append([]byte(nil), c...)
	k := 0
	var failed error
	nonce := make([]byte, 12)
	open := func() {
		copy(buf[n:], tags[k])
		// The nonce copied out of the message, as a receiver does.
		copy(nonce, gcmNonce)
		if _, err := aead.Open(buf[:0], nonce, buf, gcmAD); err != nil {
			failed = fmt.Errorf("a timed Open failed")
		}
		k ^= 1
	}
	// Checked before timing: each Open leaves the other state's bytes, and a wrong tag is
	// refused.
	for i := 0; i < 2; i++ {
		want := want[k]
		open()
		if failed != nil || !bytes.Equal(buf[:n], want) {
			return 0, fmt.Errorf("Open failed or gave other bytes")
		}
	}
	forged := append([]byte(nil), c...)
	forged[n] ^= 1
	if _, err := aead.Open(nil, gcmNonce, forged, gcmAD); err == nil {
		return 0, fmt.Errorf("Open accepted a wrong tag")
	}
	ns := nsPerOp(open, target, rounds)
	return ns, failed
}

type record struct {
	Impl    string  `json:"impl"`
	Backend string  `json:"backend"`
	Bytes   int     `json:"bytes"`
	NsPerOp float64 `json:"ns_per_op"`
	MbPerS  float64 `json:"mb_per_s"`
}

// nsPerOp times op: warm-up, then rounds of enough calls to fill `target`, median per call.
func nsPerOp(op func(), target time.Duration, rounds int) float64 {
	for i := 0; i < 3; i++ {
		op()
	}
	start := time.Now()
	op()
	calls := int(target / (time.Since(start) + 1))
	if calls < 1 {
		calls = 1
	}
	samples := make([]float64, rounds)
	for r := range samples {
		t0 := time.Now()
		for i := 0; i < calls; i++ {
			op()
		}
		samples[r] = float64(time.Since(t0).Nanoseconds()) / float64(calls)
	}
	sort.Float64s(samples)
	return samples[rounds/2]
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// mustParseSizes is parseSizes, or exit 2 with the error.
func mustParseSizes(s string) []int {
	list, err := parseSizes(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return list
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peers aez|aez-check|ctr|ctr-check|gcm|gcm-check|gcm-open [flags]")
		os.Exit(2)
	}
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	sizes := flags.String("sizes", "1,32,512,1024,2048,4096,8192,16384,32768,65536,1024768", "message sizes")
	size := flags.Int("size", 100, "message size for the check")
	quick := flags.Bool("quick", false, "shorter measurements")
	keyHex := flags.String("key", "", "AES key (ctr, ctr-check, gcm, gcm-check, gcm-open)")
	ivHex := flags.String("iv", "", "first counter block (ctr, ctr-check)")
	flags.Parse(os.Args[2:])
	target, rounds := 20*time.Millisecond, 9
	if *quick {
		target, rounds = 3*time.Millisecond, 5
	}

	key, nonce := testKey(), testNonce()
	switch os.Args[1] {
	case "aez-check":
		fmt.Println(hex.EncodeToString(aez.Encrypt(key, nonce, nil, 16, fill(*size, 3, 0), nil)))
	case "aez":
		list := mustParseSizes(*sizes)
		var out []record
		for _, n := range list {
			msg := fill(n, 3, 0)
			dst := make([]byte, 0, n+16)
			ns := nsPerOp(func() { aez.Encrypt(key, nonce, nil, 16, msg, dst[:0]) }, target, rounds)
			out = append(out, record{implName, backendName, n, ns, float64(n) / ns * 1e3})
		}
		json.NewEncoder(os.Stdout).Encode(out)
	case "ctr-check", "ctr":
		ctrKey, iv := decodeHex("key", *keyHex), decodeHex("iv", *ivHex)
		if _, err := ctrStream(ctrKey, iv); err != nil || len(iv) != 16 {
			fmt.Fprintln(os.Stderr, "bad key or IV:", err)
			os.Exit(2)
		}
		message := func(n int) []byte { return fill(n, 7, 3) }
		if os.Args[1] == "ctr-check" {
			second := make([]byte, 16)
			messageIV(second, iv, 1)
			for _, iv := range [][]byte{iv, second} {
				s, _ := ctrStream(ctrKey, iv)
				buf := message(*size)
				s.XORKeyStream(buf, buf)
				fmt.Println(hex.EncodeToString(buf))
			}
			return
		}
		list := mustParseSizes(*sizes)
		var out []ctrRecord
		for _, n := range list {
			buf := message(n)
			// The key is expanded once; each call starts a message under its own IV.
			block, _ := aes.NewCipher(ctrKey)
			msgIV := make([]byte, 16)
			seq := uint64(1)
			ns := nsPerOp(func() {
				messageIV(msgIV, iv, seq)
				seq++
				cipher.NewCTR(block, msgIV).XORKeyStream(buf, buf)
			}, target, rounds)
			out = append(out, ctrRecord{"go", "crypto/aes + cipher.NewCTR", "none", 8 * len(ctrKey), n, 1, ns})
		}
		json.NewEncoder(os.Stdout).Encode(out)
	case "gcm-check", "gcm", "gcm-open":
		aead, err := gcmAead(decodeHex("key", *keyHex))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad key:", err)
			os.Exit(2)
		}
		message := func(n int) []byte { return fill(n, 7, 3) }
		if os.Args[1] == "gcm-check" {
			second := make([]byte, 12)
			messageNonce(second, 1)
			for _, nonce := range [][]byte{gcmNonce, second} {
				fmt.Println(hex.EncodeToString(aead.Seal(nil, nonce, message(*size), gcmAD)))
			}
			return
		}
		list := mustParseSizes(*sizes)
		var out []ctrRecord
		if os.Args[1] == "gcm-open" {
			for _, n := range list {
				ns, err := openNsPerOp(aead, message(n), target, rounds)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%d bytes: %v\n", n, err)
					os.Exit(1)
				}
				out = append(out, ctrRecord{"go", "crypto/aes + cipher.NewGCM", "none", 8 * len(*keyHex) / 2, n, 1, ns})
			}
			json.NewEncoder(os.Stdout).Encode(out)
			return
		}
		for _, n := range list {
			buf := message(n)
			dst := make([]byte, 0, n+16)
			// Into a reused buffer: no allocation is timed. Each message under its own nonce.
			nonce := make([]byte, 12)
			seq := uint64(1)
			ns := nsPerOp(func() {
				messageNonce(nonce, seq)
				seq++
				aead.Seal(dst[:0], nonce, buf, gcmAD)
			}, target, rounds)
			out = append(out, ctrRecord{"go", "crypto/aes + cipher.NewGCM", "none", 8 * len(*keyHex) / 2, n, 1, ns})
		}
		json.NewEncoder(os.Stdout).Encode(out)
	default:
		fmt.Fprintln(os.Stderr, "unknown command", os.Args[1])
		os.Exit(2)
	}
}
