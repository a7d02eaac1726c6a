// This file runs every curl example of docs/HOST.md, in order, against a host serving the
// demo agent, and reads a curl command line for it (a small parser with its fuzz target).

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/host"
	sessionsqlite "github.com/agentfootprint/agentfootprint-go/host/session/sqlite"
	"github.com/agentfootprint/agentfootprint-go/llm/providers"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// curlCmd is what a curl example asks for.
type curlCmd struct {
	Method  string
	URL     string
	Headers [][2]string
	Body    string
	// Status is the status the example's trailing "# NNN" comment expects (0: any 2xx).
	Status int
}

// shellWords splits a command line as a POSIX shell would for the quoting the examples use
// (single quotes, double quotes with \" and \\, a # comment at the start of a word), and
// returns the words and the comment.
func shellWords(line string) ([]string, string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words, strings.TrimSpace(line[i+1:]), nil
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, "", errors.New("an unclosed single quote")
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, "", errors.New("an unclosed double quote")
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, "", nil
}

// parseCurl reads one curl example: -s, -N and -i are ignored; -X, -H and -d take a value;
// the URL is the one other word. It refuses any other flag, so an example the test cannot
// run is not silently skipped.
func parseCurl(line string) (curlCmd, error) {
	words, comment, err := shellWords(line)
	if err != nil {
		return curlCmd{}, err
	}
	if len(words) == 0 || words[0] != "curl" {
		return curlCmd{}, errors.New("not a curl command")
	}
	var c curlCmd
	if comment != "" {
		n, err := strconv.Atoi(comment)
		if err != nil || n < 100 || n > 599 {
			return curlCmd{}, fmt.Errorf("the comment %q is not an HTTP status", comment)
		}
		c.Status = n
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch w {
		case "-s", "-N", "-i":
		case "-X", "-H", "-d":
			if i+1 >= len(words) {
				return curlCmd{}, fmt.Errorf("%s has no value", w)
			}
			i++
			switch w {
			case "-X":
				c.Method = words[i]
			case "-H":
				k, v, ok := strings.Cut(words[i], ":")
				if !ok {
					return curlCmd{}, fmt.Errorf("header %q has no colon", words[i])
				}
				c.Headers = append(c.Headers, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
			case "-d":
				c.Body = words[i]
			}
		default:
			if strings.HasPrefix(w, "-") {
				return curlCmd{}, fmt.Errorf("flag %s is not one the doc test runs", w)
			}
			if c.URL != "" {
				return curlCmd{}, fmt.Errorf("a second URL %q", w)
			}
			c.URL = w
		}
	}
	if c.URL == "" {
		return curlCmd{}, errors.New("no URL")
	}
	if c.Method == "" {
		c.Method = "GET"
		if c.Body != "" {
			c.Method = "POST"
		}
	}
	return c, nil
}

func FuzzParseCurl(f *testing.F) {
	f.Add(`curl -s -X POST http://127.0.0.1:8080/v1/conversations -d '{}'`)
	f.Add(`curl -s -N http://h/v1/x -H 'Last-Event-ID: 5' # 409`)
	f.Add(`curl "a\"b" 'c`)
	f.Fuzz(func(t *testing.T, line string) {
		c, err := parseCurl(line)
		if err == nil && (c.URL == "" || c.Method == "") {
			t.Errorf("parseCurl(%q) = %+v with no error", line, c)
		}
	})
}

func TestParseCurl(t *testing.T) {
	c, err := parseCurl(`curl -s -N -X POST http://h/x -H 'Accept: text/event-stream' -d '{"message":"a # b"}' # 409`)
	if err != nil {
		t.Fatal(err)
	}
	want := curlCmd{Method: "POST", URL: "http://h/x", Headers: [][2]string{{"Accept", "text/event-stream"}}, Body: `{"message":"a # b"}`, Status: 409}
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("parseCurl = %+v, want %+v", c, want)
	}
	for _, bad := range []string{`curl`, `curl -X`, `curl --data x http://h`, `curl 'x`, `wget http://h`, `curl http://h # soon`} {
		if _, err := parseCurl(bad); err == nil {
			t.Errorf("parseCurl(%q) accepted", bad)
		}
	}
}

// docCurls returns the curl lines of the sh blocks of the doc at path.
func docCurls(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in && strings.HasPrefix(line, "curl "):
			out = append(out, line)
		}
	}
	return out
}

func TestHostDocExamples(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "host.db")
	ctx := context.Background()
	ss, err := sessionsqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	rs, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	name, a, err := serveAgent(context.Background(), "demo", providers.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := host.Must(host.WithAgent(name, a), host.WithSessions(ss), host.WithRuns(rs))
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()

	lines := docCurls(t, filepath.Join("..", "..", "docs", "HOST.md"))
	if len(lines) < 12 {
		t.Fatalf("docs/HOST.md has %d curl examples; every endpoint should have one", len(lines))
	}
	vars := map[string]string{}
	for _, line := range lines {
		c, err := parseCurl(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		url := strings.Replace(c.URL, "http://127.0.0.1:8080", srv.URL, 1)
		for k, v := range vars {
			url = strings.ReplaceAll(url, "$"+k, v)
		}
		if strings.Contains(url, "$") {
			t.Fatalf("%s: a variable is not set yet (%s)", line, url)
		}
		status, body := runCurl(t, c, url)
		want := fmt.Sprintf("%d", c.Status)
		if c.Status == 0 && status/100 == 2 || status == c.Status {
			want = ""
		}
		if want != "" {
			t.Errorf("%s\n  answered %d %s, want %s (2xx when the doc says nothing)", line, status, body, want)
			continue
		}
		var v struct {
			ID    string `json:"id"`
			RunID string `json:"runId"`
		}
		json.Unmarshal([]byte(body), &v)
		if v.ID != "" && strings.HasSuffix(c.URL, "/v1/conversations") {
			vars["CONV"] = v.ID
		}
		if v.RunID != "" {
			vars["RUN"] = v.RunID
		}
	}
}

// runCurl makes the request; a stream is read up to its first result event, whose data is
// returned as the body.
func runCurl(t *testing.T, c curlCmd, url string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, c.Method, url, strings.NewReader(c.Body))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range c.Headers {
		req.Header.Set(h[0], h[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	result := false
	for sc.Scan() {
		line := sc.Text()
		if line == "event: result" {
			result = true
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && result {
			return resp.StatusCode, d
		}
	}
	t.Errorf("%s %s: the stream ended without a result event", c.Method, url)
	return resp.StatusCode, ""
}
