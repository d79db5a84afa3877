// tracecheck --runtime FILE: every event of the runtime's own providers (DotNETRuntime, its
// Rundown) that TraceEvent's CLR parsers know, as sorted text lines the end-to-end tests
// compare with clrattach's layouts of the same events:
//   rt PROVIDER EVENTID VERSION\tNAME=VALUE\t...   one per event, fields sorted by name
// Integers (and enums) in decimal as unsigned of their width, doubles as the hex of their IEEE
// bits, GUIDs as 8-4-4-4-12. The arrays TraceEvent hides behind accessors come out as the
// manifest names them: Values[i].Member, ILOffsets[i], Values[i].TypeParameters[j].
using System.Globalization;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

static class RuntimeFields
{
    public static int Run(string path)
    {
        var lines = new List<string>();
        using (var source = new EventPipeEventSource(path))
        {
            Action<TraceEvent> take = data => lines.Add(Line(data));
            source.Clr.All += take;
            new ClrRundownTraceEventParser(source).All += take;
            source.Process();
        }
        lines.Sort(string.CompareOrdinal);
        var stdout = new StringBuilder();
        foreach (var line in lines)
            stdout.Append(line).Append('\n');
        Console.Out.Write(stdout.ToString());
        return 0;
    }

    static string Line(TraceEvent data)
    {
        var fields = new List<(string, string)>();
        for (int i = 0; i < data.PayloadNames.Length; i++)
            fields.Add((data.PayloadNames[i], Text(data.PayloadValue(i))));
        Arrays(data, fields);
        AsInManifest(data, fields);
        fields.Sort((a, b) => string.CompareOrdinal(a.Item1, b.Item1));
        var sb = new StringBuilder($"rt {data.ProviderName} {(int)data.ID} {data.Version}");
        foreach (var (name, value) in fields)
            sb.Append('\t').Append(name).Append('=').Append(value);
        return sb.ToString();
    }

    // Where TraceEvent departs from the manifest's names: GCMarkWithType's Bytes is "Promoted".
    // (It also takes the tier, bits 7-9, out of MethodFlags: runtime_lines.c masks them.)
    static void AsInManifest(TraceEvent data, List<(string, string)> f)
    {
        if (data is GCMarkWithTypeTraceData)
            for (int i = 0; i < f.Count; i++)
                if (f[i].Item1 == "Promoted")
                    f[i] = ("Bytes", f[i].Item2);
    }

    // The elements TraceEvent reads through accessors rather than payload values.
    static void Arrays(TraceEvent data, List<(string, string)> f)
    {
        switch (data)
        {
            case GCBulkNodeTraceData d:
                for (int i = 0; i < d.Count; i++)
                {
                    var v = d.Values(i);
                    Add(f, $"Values[{i}].", ("Address", v.Address), ("Size", v.Size),
                        ("TypeID", v.TypeID), ("EdgeCount", v.EdgeCount));
                }
                break;
            case GCBulkEdgeTraceData d:
                for (int i = 0; i < d.Count; i++)
                {
                    var v = d.Values(i);
                    Add(f, $"Values[{i}].", ("Value", v.Target),
                        ("ReferencingFieldID", v.ReferencingField));
                }
                break;
            case GCBulkRootEdgeTraceData d:
                for (int i = 0; i < d.Count; i++)
                {
                    var v = d.Values(i);
                    Add(f, $"Values[{i}].", ("RootedNodeAddress", v.RootedNodeAddress),
                        ("GCRootKind", v.GCRootKind), ("GCRootFlag", v.GCRootFlag),
                        ("GCRootID", v.GCRootID));
                }
                break;
            case GCBulkTypeTraceData d:
                for (int i = 0; i < d.Count; i++)
                {
                    var v = d.Values(i);
                    Add(f, $"Values[{i}].", ("TypeID", v.TypeID), ("ModuleID", v.ModuleID),
                        ("TypeNameID", v.TypeNameID), ("Flags", v.Flags),
                        ("CorElementType", v.CorElementType), ("TypeName", v.TypeName),
                        ("TypeParameterCount", v.TypeParameterCount));
                    for (int j = 0; j < v.TypeParameterCount; j++)
                        Add(f, $"Values[{i}].", ($"TypeParameters[{j}]", v.TypeParameterID(j)));
                }
                break;
            case GCBulkRootStaticVarTraceData d:
                for (int i = 0; i < d.Count; i++)
                {
                    var v = d.Values(i);
                    Add(f, $"Values[{i}].", ("GCRootID", v.GCRootID), ("ObjectID", v.ObjectID),
                        ("TypeID", v.TypeID), ("Flags", v.Flags), ("FieldName", v.FieldName));
                }
                break;
            case MethodILToNativeMapTraceData d:
                for (int i = 0; i < d.CountOfMapEntries; i++)
                {
                    Add(f, "", ($"ILOffsets[{i}]", d.ILOffset(i)));
                    Add(f, "", ($"NativeOffsets[{i}]", d.NativeOffset(i)));
                }
                break;
        }
    }

    static void Add(List<(string, string)> f, string prefix, params (string, object?)[] members)
    {
        foreach (var (name, value) in members)
            f.Add((prefix + name, Text(value)));
    }

    static string Text(object? v)
    {
        switch (v)
        {
            case null: return "null";
            case string s: return s;
            case bool b: return b ? "true" : "false";
            case Guid g: return g.ToString("D");
            case double x: return $"0x{BitConverter.DoubleToInt64Bits(x):x16}";
            case float x: return $"0x{BitConverter.DoubleToInt64Bits(x):x16}";
            case Enum e: return Text(Convert.ChangeType(e, Enum.GetUnderlyingType(e.GetType())));
            case sbyte x: return ((byte)x).ToString(CultureInfo.InvariantCulture);
            case short x: return ((ushort)x).ToString(CultureInfo.InvariantCulture);
            case int x: return ((uint)x).ToString(CultureInfo.InvariantCulture);
            case long x: return ((ulong)x).ToString(CultureInfo.InvariantCulture);
            case IFormattable x: return x.ToString(null, CultureInfo.InvariantCulture);
            default: return v.ToString() ?? "";
        }
    }
}
