// The managed anchor of bench/run: Microsoft.Diagnostics.NETCore.Client doing what
// bench_client does with libclrattach, printing the same figures.
//   anchor attach PID PROFILER_PATH CLSID CLIENT_DATA
//       one attach; prints the call's time in ms (what `clrattach attach --json` calls
//       elapsed_ms)
//   anchor info|env PID N
//       N ProcessInfo or environment requests after 20 unmeasured ones, one DiagnosticsClient
//       as a long-lived tool would keep; prints each request's ns. GetProcessInfo is internal
//       in this package, so it is reached by reflection, bound once to a delegate.
using System.Diagnostics;
using System.Reflection;
using System.Text;
using Microsoft.Diagnostics.NETCore.Client;

if (args.Length == 5 && args[0] == "attach")
{
    int pid = int.Parse(args[1]);
    var clock = Stopwatch.StartNew();
    var client = new DiagnosticsClient(pid);
    // The client sends whole seconds in a field the runtime reads as milliseconds (see README).
    client.AttachProfiler(TimeSpan.FromSeconds(10), Guid.Parse(args[3]), args[2],
                          Encoding.UTF8.GetBytes(args[4]));
    Console.WriteLine(clock.Elapsed.TotalMilliseconds.ToString("F3"));
    return 0;
}
if (args.Length == 3 && (args[0] == "info" || args[0] == "env"))
{
    var client = new DiagnosticsClient(int.Parse(args[1]));
    Func<object> request = args[0] == "env"
        ? () => client.GetProcessEnvironment()
        : typeof(DiagnosticsClient)
              .GetMethod("GetProcessInfo", BindingFlags.Instance | BindingFlags.NonPublic)!
              .CreateDelegate<Func<object>>(client);
    int n = int.Parse(args[2]);
    var output = new StringBuilder();
    for (int i = -20; i < n; i++)
    {
        long t0 = Stopwatch.GetTimestamp();
        request();
        long ns = (Stopwatch.GetTimestamp() - t0) * 1_000_000_000 / Stopwatch.Frequency;
        if (i >= 0)
            output.Append(ns).Append('\n');
    }
    Console.Write(output);
    return 0;
}
Console.Error.WriteLine("usage: anchor attach PID PROFILER CLSID DATA | anchor info|env PID N");
return 2;
