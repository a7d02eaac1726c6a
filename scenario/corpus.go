// This file holds the scenario's retrieval parts: corpora (inline passages or a JSONL
// file beside the scenario), the agent's retrieval units over them, and building both.

package scenario

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

// Caps on a corpus file.
const (
	// maxCorpusFileBytes is the largest JSONL corpus file read.
	maxCorpusFileBytes = 32 << 20
	// maxCorpusPassages is the most passages one corpus may hold.
	maxCorpusPassages = 100_000
)

var (
	corpusKeys    = []string{"name", "passages", "file", "dims", "coverage"}
	passageKeys   = []string{"id", "source", "text", "metadata"}
	retrievalKeys = []string{"corpus", "topK", "threshold", "budget", "candidates", "queryKey", "slot", "role", "priority"}
)

type corpusSpec struct {
	path     string
	name     string
	dims     int
	passages []retrieval.Passage
	cover    any // the coverage declaration as decoded JSON; nil when none
}

type retrievalSpec struct {
	path       string
	corpus     string
	topK       int
	threshold  *float64
	budget     int
	candidates int
	queryKey   string
	slot       inject.Slot
	role       llm.Role
	priority   int
}

func parseCorpora(path string, v any, dir string) ([]corpusSpec, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]corpusSpec, 0, len(arr))
	names := map[string]bool{}
	for i, e := range arr {
		c, err := parseCorpus(index(path, i), e, dir)
		if err != nil {
			return nil, err
		}
		if names[c.name] {
			return nil, fieldErr(join(c.path, "name"), "%q names an earlier corpus too", c.name)
		}
		names[c.name] = true
		out = append(out, c)
	}
	return out, nil
}

func parseCorpus(path string, v any, dir string) (corpusSpec, error) {
	c := corpusSpec{path: path, dims: 256}
	o, err := asObject(path, v)
	if err != nil {
		return c, err
	}
	if err := checkKeys(path, o, corpusKeys); err != nil {
		return c, err
	}
	if _, ok := o.Get("name"); !ok {
		return c, fieldErr(join(path, "name"), "missing: a corpus needs a name")
	}
	_, inline := o.Get("passages")
	_, file := o.Get("file")
	if inline == file {
		return c, fieldErr(path, "give the passages inline (passages) or in a JSONL file (file), one of the two")
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "name":
			c.name, err = asString(p, m.Value)
		case "dims":
			c.dims, err = asInt(p, m.Value, 1)
			if err == nil && c.dims > 4096 {
				err = fieldErr(p, "%d buckets is more than 4096", c.dims)
			}
		case "passages":
			var arr []any
			if arr, err = asArray(p, m.Value); err == nil {
				for i, e := range arr {
					var ps retrieval.Passage
					if ps, err = parsePassage(index(p, i), e); err != nil {
						break
					}
					c.passages = append(c.passages, ps)
				}
			}
		case "file":
			var name string
			if name, err = asString(p, m.Value); err == nil {
				c.passages, err = readCorpusFile(p, name, dir)
			}
		case "coverage":
			c.cover = m.Value
		}
		if err != nil {
			return c, err
		}
	}
	if len(c.passages) > maxCorpusPassages {
		return c, fieldErr(path, "%d passages, more than %d", len(c.passages), maxCorpusPassages)
	}
	// Build it once now so the corpus and its coverage are refused here, by field.
	if _, err := c.build(context.Background()); err != nil {
		return c, fieldErr(path, "%v", strings.TrimPrefix(err.Error(), "retrieval: "))
	}
	return c, nil
}

func parsePassage(path string, v any) (retrieval.Passage, error) {
	var p retrieval.Passage
	o, err := asObject(path, v)
	if err != nil {
		return p, err
	}
	if err := checkKeys(path, o, passageKeys); err != nil {
		return p, err
	}
	for _, m := range o {
		fp := join(path, m.Key)
		switch m.Key {
		case "id":
			p.ID, err = asString(fp, m.Value)
		case "source":
			p.Source, err = asString(fp, m.Value)
		case "text":
			p.Text, err = asString(fp, m.Value)
		case "metadata":
			var md wire.Object
			if md, err = asObject(fp, m.Value); err == nil {
				p.Metadata = map[string]string{}
				for _, kv := range md {
					var s string
					if s, err = asString(join(fp, kv.Key), kv.Value); err != nil {
						break
					}
					p.Metadata[kv.Key] = s
				}
			}
		}
		if err != nil {
			return p, err
		}
	}
	if err := p.Validate(); err != nil {
		return p, fieldErr(path, "%v", strings.TrimPrefix(err.Error(), "retrieval: "))
	}
	return p, nil
}

// readCorpusFile reads a JSONL corpus: one passage object per line, blank lines skipped.
// name is relative to the scenario file's directory; dir is "" when the scenario was
// parsed from bytes, and then a file cannot be resolved.
func readCorpusFile(path, name, dir string) ([]retrieval.Passage, error) {
	if dir == "" {
		return nil, fieldErr(path, "a corpus file is read relative to the scenario file; load the scenario from its path (scenario.Load) or give the passages inline")
	}
	if filepath.IsAbs(name) {
		return nil, fieldErr(path, "%q is absolute; name the file relative to the scenario file", name)
	}
	full := filepath.Join(dir, filepath.FromSlash(name))
	f, err := os.Open(full)
	if err != nil {
		return nil, fieldErr(path, "%v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxCorpusFileBytes {
		return nil, fieldErr(path, "%s is %d bytes; the limit is %d", name, st.Size(), maxCorpusFileBytes)
	}
	data, err := readAllCapped(f, maxCorpusFileBytes)
	if err != nil {
		return nil, fieldErr(path, "%s: %v", name, err)
	}
	return parseJSONL(path+" ("+name+")", data)
}

func readAllCapped(f *os.File, max int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := buf.ReadFrom(&cappedReader{r: bufio.NewReader(f), left: max + 1})
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("more than %d bytes", max)
	}
	return buf.Bytes(), nil
}

type cappedReader struct {
	r    *bufio.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("more than the limit")
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// parseJSONL reads passages, one JSON object per line; path names the corpus in errors,
// with the line number.
func parseJSONL(path string, data []byte) ([]retrieval.Passage, error) {
	var out []retrieval.Passage
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		lp := fmt.Sprintf("%s line %d", path, i+1)
		v, err := wire.DecodeJSON(line)
		if err != nil {
			return nil, fieldErr(lp, "%s", strings.TrimPrefix(err.Error(), "coverage: "))
		}
		p, err := parsePassage(lp, v)
		if err != nil {
			return nil, err
		}
		if len(out) == maxCorpusPassages {
			return nil, fieldErr(lp, "more than %d passages", maxCorpusPassages)
		}
		out = append(out, p)
	}
	return out, nil
}

func parseRetrievals(path string, v any) ([]retrievalSpec, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]retrievalSpec, 0, len(arr))
	for i, e := range arr {
		r, err := parseRetrieval(index(path, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func parseRetrieval(path string, v any) (retrievalSpec, error) {
	r := retrievalSpec{path: path, topK: 3}
	o, err := asObject(path, v)
	if err != nil {
		return r, err
	}
	if err := checkKeys(path, o, retrievalKeys); err != nil {
		return r, err
	}
	if _, ok := o.Get("corpus"); !ok {
		return r, fieldErr(join(path, "corpus"), "missing: name the corpus the units retrieve from")
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "corpus":
			r.corpus, err = asString(p, m.Value)
		case "topK":
			r.topK, err = asInt(p, m.Value, 1)
		case "threshold":
			var f float64
			if f, err = asFloat(p, m.Value); err == nil {
				if f < -1 || f > 1 {
					err = fieldErr(p, "%v is not a cosine score from -1 to 1", f)
				}
				r.threshold = &f
			}
		case "budget":
			r.budget, err = asInt(p, m.Value, 1)
		case "candidates":
			r.candidates, err = asInt(p, m.Value, 1)
		case "queryKey":
			r.queryKey, err = asString(p, m.Value)
		case "slot":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "slot", s, []string{string(inject.SlotSystem), string(inject.SlotMessages)})
				r.slot = inject.Slot(s)
			}
		case "role":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "role", s, []string{string(llm.RoleUser), string(llm.RoleSystem)})
				r.role = llm.Role(s)
			}
		case "priority":
			r.priority, err = asInt(p, m.Value, -1000000)
		}
		if err != nil {
			return r, err
		}
	}
	if r.role != "" && r.slot != inject.SlotMessages {
		return r, fieldErr(join(path, "role"), "a role needs \"slot\": \"messages\"")
	}
	if r.slot == inject.SlotMessages && r.role == "" {
		r.role = llm.RoleUser
	}
	if r.candidates > 0 && r.candidates < r.topK {
		return r, fieldErr(join(path, "candidates"), "%d is fewer than topK (%d)", r.candidates, r.topK)
	}
	return r, nil
}

// checkRetrieval refuses a retrieval naming no corpus, a corpus retrieved twice, and a
// passage id that is also a unit's id or another corpus's passage id.
func (f *File) checkRetrieval() error {
	corpora := map[string]*corpusSpec{}
	for i := range f.corpora {
		corpora[f.corpora[i].name] = &f.corpora[i]
	}
	ids := map[string]string{}
	for _, u := range f.agent.units {
		ids[u.id] = u.path
	}
	used := map[string]string{}
	for _, r := range f.agent.retrieval {
		c, ok := corpora[r.corpus]
		if !ok {
			var names []string
			for _, c := range f.corpora {
				names = append(names, c.name)
			}
			known := "the file declares no corpora"
			if len(names) > 0 {
				known = "the corpora are " + strings.Join(names, ", ")
			}
			return fieldErr(join(r.path, "corpus"), "no corpus named %q; %s", r.corpus, known)
		}
		if prev, ok := used[r.corpus]; ok {
			return fieldErr(join(r.path, "corpus"), "%q is already retrieved by %s", r.corpus, prev)
		}
		used[r.corpus] = r.path
		for i, p := range c.passages {
			if prev, ok := ids[p.ID]; ok {
				return fieldErr(fmt.Sprintf("%s.passages[%d].id", c.path, i), "%q is already the id of %s", p.ID, prev)
			}
			ids[p.ID] = fmt.Sprintf("%s passage %d", c.path, i)
		}
	}
	return nil
}

// build embeds the corpus into a fresh in-memory index with the hashed bag-of-words
// embedder.
func (c *corpusSpec) build(ctx context.Context) (*retrieval.Corpus, error) {
	idx, err := retrieval.NewMemoryIndex(c.dims)
	if err != nil {
		return nil, err
	}
	var opts []retrieval.CorpusOption
	if c.cover != nil {
		opts = append(opts, retrieval.WithCoverageData(c.cover))
	}
	corp, err := retrieval.NewCorpus(c.name, &retrieval.HashEmbedder{Dims: c.dims}, idx, opts...)
	if err != nil {
		return nil, err
	}
	if err := corp.Add(ctx, c.passages...); err != nil {
		return nil, err
	}
	return corp, nil
}

// retrievalUnits builds the passage units of every retrieval the agent declares.
func (f *File) retrievalUnits(ctx context.Context) ([]*inject.Unit, error) {
	var out []*inject.Unit
	for _, r := range f.agent.retrieval {
		var c *corpusSpec
		for i := range f.corpora {
			if f.corpora[i].name == r.corpus {
				c = &f.corpora[i]
			}
		}
		if c == nil {
			return nil, fieldErr(join(r.path, "corpus"), "no corpus named %q", r.corpus)
		}
		corp, err := c.build(ctx)
		if err != nil {
			return nil, fmt.Errorf("scenario: corpus %q: %w", c.name, err)
		}
		opts := []retrieval.Option{retrieval.WithTopK(r.topK)}
		if r.threshold != nil {
			opts = append(opts, retrieval.WithThreshold(*r.threshold))
		}
		if r.budget > 0 {
			opts = append(opts, retrieval.WithBudget(r.budget))
		}
		if r.candidates > 0 {
			opts = append(opts, retrieval.WithCandidates(r.candidates))
		}
		if r.queryKey != "" {
			key := r.queryKey
			opts = append(opts, retrieval.WithQuery("the state key "+key, func(rd flow.Reader) string {
				v, _ := rd.Get(key)
				s, _ := v.(string)
				return s
			}))
		}
		var uo []inject.Option
		if r.slot == inject.SlotMessages {
			uo = append(uo, inject.WithMessageSlot(r.role))
		}
		if r.priority != 0 {
			uo = append(uo, inject.WithPriority(r.priority))
		}
		if len(uo) > 0 {
			opts = append(opts, retrieval.WithUnitOptions(uo...))
		}
		us, err := retrieval.Units(ctx, corp, opts...)
		if err != nil {
			return nil, fmt.Errorf("scenario: retrieval of %q: %w", c.name, err)
		}
		out = append(out, us...)
	}
	return out, nil
}
